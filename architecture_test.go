package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// layers is the architecture of README.md as data: for each package, the
// packages of this module it may import (non-test files). Anything else,
// such as render importing gpucompute or engine importing datasets, fails
// TestArchitecture.
var layers = map[string][]string{
	"engine":                    {"engine/pairkernel"},
	"engine/pairkernel":         {},
	"engine/emds":               {"engine", "engine/iterate", "engine/pairkernel"},
	"engine/iterate":            {},
	"engine/backendtest":        {"engine", "engine/emds"},
	"engine/hypernymy":          {"engine", "engine/emds", "engine/iterate", "engine/pairkernel"},
	"engine/words":              {"engine", "engine/pairkernel"},
	"assets":                    {},
	"outfile":                   {},
	"datasets":                  {"engine", "assets", "engine/words", "outfile"},
	"gpucompute":                {"engine", "engine/emds"},
	"render":                    {"engine", "engine/emds", "datasets", "outfile"},
	"ui/cli":                    {"engine", "engine/emds", "engine/backendtest", "engine/hypernymy", "engine/words", "datasets", "gpucompute", "render", "ui/fit", "internal/cputime", "outfile"},
	"ui":                        {"engine/emds", "datasets", "render", "ui/internal/cleanlocale", "ui/prefs", "ui/launch", "ui/export", "ui/menu", "ui/fit", "ui/view", "ui/widget", "ui/tab/data", "ui/tab/model", "ui/tab/display", "ui/tab/geodesic", "ui/tab/explore", "ui/tab/relations"},
	".":                         {"ui", "ui/cli", "ui/launch"},
	"ui/internal/cleanlocale":   {},
	"ui/prefstore":              {"outfile"},
	"ui/internal/icongen":       {},
	"ui/internal/shotcheck":     {},
	"ui/internal/shotcheck/cmd": {"ui/internal/shotcheck"},

	// The app's rooms: fit (session, run state, settings, defaults and
	// backend choice, shared with ui/cli so the two cannot drift), view
	// (frame loop, overlays, tooltips), widget (canvas, charts, toolbar),
	// prefs (what persists), launch (command line and start-up), export
	// (files written from the canvas), menu (the window's commands) and
	// one package per side tab; ui above is the only package that knows
	// every tab.
	"ui/fit":           {"engine", "engine/emds", "engine/hypernymy", "datasets", "gpucompute", "render"},
	"ui/prefs":         {"ui/fit", "ui/prefstore"},
	"ui/launch":        {"engine/emds", "datasets", "ui/fit", "ui/prefs", "ui/internal/icongen"},
	"ui/export":        {"engine/emds", "datasets", "render", "ui/fit", "ui/prefs", "ui/view"},
	"ui/menu":          {"datasets", "ui/export", "ui/prefs"},
	"ui/view":          {"engine", "engine/emds", "datasets", "render", "ui/fit"},
	"ui/widget":        {"engine/hypernymy", "ui/fit", "ui/view"},
	"ui/tab/data":      {"datasets", "ui/fit"},
	"ui/tab/model":     {"ui/fit"},
	"ui/tab/display":   {"ui/fit"},
	"ui/tab/geodesic":  {"engine", "engine/emds", "render", "ui/view", "ui/widget"},
	"ui/tab/explore":   {"engine", "engine/emds", "datasets", "render", "ui/fit", "ui/view", "ui/widget"},
	"ui/tab/relations": {"engine", "engine/hypernymy", "datasets", "ui/fit", "ui/view", "ui/widget"},

	// Helpers shared by several packages.
	"internal/cputime":         {},
	"docs/experiments/figure6": {},
}

// forbidden lists external module prefixes a layer must never import:
// the engine and the data and drawing layers stay free of Fyne and GL, and
// the GL backend free of Fyne (the app hands it fyne.DoAndWait instead).
var forbidden = map[string][]string{
	"engine":            {"fyne.io/", "github.com/go-gl/"},
	"engine/emds":       {"fyne.io/", "github.com/go-gl/"},
	"engine/hypernymy":  {"fyne.io/", "github.com/go-gl/"},
	"engine/words":      {"fyne.io/", "github.com/go-gl/"},
	"engine/pairkernel": {"fyne.io/", "github.com/go-gl/"},
	"datasets":          {"fyne.io/", "github.com/go-gl/"},
	"render":            {"fyne.io/", "github.com/go-gl/"},
	"gpucompute":        {"fyne.io/"},
	"ui/cli":            {"fyne.io/"},
	"ui/fit":            {"fyne.io/", "github.com/go-gl/"},
	"ui/view":           {"fyne.io/", "github.com/go-gl/"},
	// A hand-run plotting script (build tag ignore): gonum/plot only.
	"docs/experiments/figure6": {"fyne.io/", "github.com/go-gl/"},
}

// TestArchitecture parses every non-test Go file and checks its imports
// against layers and forbidden, that no side tab (ui/tab/...) imports
// another, and that no package is missing from layers.
func TestArchitecture(t *testing.T) {
	const module = "burescope"
	seen := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		seen[pkg] = true
		allowed, ok := layers[pkg]
		if !ok {
			t.Errorf("%s: package %q is not in the architecture table (architecture_test.go)", path, pkg)
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			ip, _ := strconv.Unquote(im.Path.Value)
			rest, ours := strings.CutPrefix(ip, module+"/")
			if ours && strings.HasPrefix(pkg, "ui/tab/") && strings.HasPrefix(rest, "ui/tab/") && rest != pkg {
				t.Errorf("%s imports %s: a tab never imports another tab (the app wires them through their Host)", path, ip)
			}
			if ours {
				ok := false
				for _, a := range allowed {
					ok = ok || a == rest
				}
				if !ok {
					t.Errorf("%s imports %s: %s may import only %v", path, ip, pkg, allowed)
				}
			}
			for _, bad := range forbidden[pkg] {
				if strings.HasPrefix(ip, bad) {
					t.Errorf("%s imports %s: %s must not import %s*", path, ip, pkg, bad)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range layers {
		if !seen[pkg] {
			t.Errorf("architecture table names %q, which has no Go files", pkg)
		}
	}
}
