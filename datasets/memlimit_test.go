package datasets

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestHelperMemoryLimit prints MemoryLimit for TestMemoryLimitFollowsGOMEMLIMIT.
func TestHelperMemoryLimit(t *testing.T) {
	if os.Getenv("BURESCOPE_MEMLIMIT_HELPER") != "1" {
		t.Skip("helper process")
	}
	fmt.Printf("limit=%d\n", MemoryLimit())
}

// The memory plan follows the limit the process runs under, not only the
// machine's memory: with GOMEMLIMIT=64MiB a 100 MB plan is refused.
func TestMemoryLimitFollowsGOMEMLIMIT(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMemoryLimit$", "-test.v")
	cmd.Env = append(os.Environ(), "BURESCOPE_MEMLIMIT_HELPER=1", "GOMEMLIMIT=64MiB")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	_, rest, ok := strings.Cut(string(out), "limit=")
	if !ok {
		t.Fatalf("no limit in %q", out)
	}
	v, err := strconv.ParseUint(strings.Fields(rest)[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if want := uint64(64 << 20 * MemoryFraction); v != want {
		t.Errorf("MemoryLimit under GOMEMLIMIT=64MiB is %d, want %d", v, want)
	}
}
