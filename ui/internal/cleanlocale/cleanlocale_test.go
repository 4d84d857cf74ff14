package cleanlocale

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestFyneQuietUnderCUTF8 builds a tiny program that imports this package
// before Fyne and checks that Fyne logs no locale error under LANG=C.UTF-8,
// and that without this package it does (so the test can fail).
func TestFyneQuietUnderCUTF8(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Fyne program")
	}
	run := func(withFix bool) string {
		dir := t.TempDir()
		imp := ""
		if withFix {
			imp = `_ "burescope/ui/internal/cleanlocale"`
		}
		src := "package main\n\nimport (\n\t" + imp + "\n\t_ \"fyne.io/fyne/v2/widget\"\n)\n\nfunc main() {}\n"
		// The program must live inside the module to import an internal
		// package; under testdata, so that ./... patterns and tree walks of
		// other tests (running in parallel) never see it.
		wd, _ := os.Getwd()
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		pdir, err := os.MkdirTemp(wd+"/testdata", "tmpmain")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(pdir)
		if err := os.WriteFile(pdir+"/main.go", []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		bin := dir + "/prog"
		if out, err := exec.Command("go", "build", "-o", bin, "./"+pdir[len(wd)+1:]).CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "LC_ALL=", "LC_MESSAGES=", "LANGUAGE=")
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	if out := run(true); strings.Contains(out, "locale") {
		t.Errorf("with cleanlocale, Fyne still logs: %s", out)
	}
	if out := run(false); !strings.Contains(out, "Error parsing user locale") {
		t.Logf("without cleanlocale Fyne logged nothing (%q): the workaround may no longer be needed", out)
	}
}
