//go:build unix

package cli

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHelperTrainRelations runs train-relations for TestSIGTERMSavesLikeSIGINT.
func TestHelperTrainRelations(t *testing.T) {
	if os.Getenv("BURESCOPE_CLI_HELPER") != "1" {
		t.Skip("helper process")
	}
	os.Exit(Main(strings.Fields(os.Getenv("BURESCOPE_CLI_ARGS")), os.Stdout, os.Stderr))
}

// SIGTERM (what timeout and kill send) stops train-relations the way
// Ctrl-C does: the state reached is saved and the run says it was
// interrupted, instead of the process dying with nothing written.
func TestSIGTERMSavesLikeSIGINT(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "emb.json")
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperTrainRelations$")
			cmd.Env = append(os.Environ(), "BURESCOPE_CLI_HELPER=1",
				"BURESCOPE_CLI_ARGS=train-relations builtin:mammals --epochs 1000000 --eval-every 0 --no-eval --workers 1 --out "+out)
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(stderr)
			var log strings.Builder
			for sc.Scan() {
				log.WriteString(sc.Text() + "\n")
				if strings.Contains(sc.Text(), "relations (") {
					break
				}
			}
			time.Sleep(700 * time.Millisecond)
			cmd.Process.Signal(sig)
			for sc.Scan() {
				log.WriteString(sc.Text() + "\n")
			}
			err = cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 1 {
				t.Errorf("exit %d (%v), want 1; stderr:\n%s", code, err, log.String())
			}
			if !strings.Contains(log.String(), "interrupted") {
				t.Errorf("stderr does not say interrupted:\n%s", log.String())
			}
			if st, err := os.Stat(out); err != nil || st.Size() == 0 {
				t.Errorf("nothing saved: %v", err)
			}
		})
	}
}
