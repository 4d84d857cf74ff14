package datasets

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
)

// MemoryFraction is the share of the machine's memory one allocation plan
// may take before it is refused (see MemoryLimit).
const MemoryFraction = 0.75

// fallbackMemory is assumed when the machine's memory cannot be read.
const fallbackMemory = 16 << 30

var (
	memOnce  sync.Once
	memTotal uint64
)

// MemoryLimit returns how many bytes one load or command may plan to
// allocate: MemoryFraction of the memory this process may use, the
// smallest of the machine's physical memory (MemTotal of /proc/meminfo;
// 16 GiB where that cannot be read), the memory limit of its control group
// (cgroup v2 memory.max or v1 memory.limit_in_bytes, as in a container),
// its address-space limit (ulimit -v) and the Go memory limit (GOMEMLIMIT).
func MemoryLimit() uint64 {
	memOnce.Do(func() {
		memTotal = fallbackMemory
		if kb, ok := meminfoTotal(); ok {
			memTotal = kb << 10
		}
		for _, lim := range []uint64{cgroupLimit(), addressSpaceLimit(), goMemLimit()} {
			if lim > 0 && lim < memTotal {
				memTotal = lim
			}
		}
	})
	return uint64(float64(memTotal) * MemoryFraction)
}

// meminfoTotal returns MemTotal of /proc/meminfo in KiB.
func meminfoTotal() (uint64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			fields := strings.Fields(rest)
			if len(fields) >= 1 {
				if kb, err := strconv.ParseUint(fields[0], 10, 64); err == nil && kb > 0 {
					return kb, true
				}
			}
			return 0, false
		}
	}
	return 0, false
}

// cgroupLimit returns the memory limit in bytes of this process's control
// group (0: none found). It reads /proc/self/cgroup and looks for the v2
// memory.max or the v1 memory.limit_in_bytes at that path and at the
// cgroup root (which is the process's own group inside a container).
func cgroupLimit() uint64 {
	var v1, v2 string
	if b, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			parts := strings.SplitN(line, ":", 3)
			if len(parts) != 3 {
				continue
			}
			switch {
			case parts[0] == "0" && parts[1] == "":
				v2 = parts[2]
			case strings.Contains(","+parts[1]+",", ",memory,"):
				v1 = parts[2]
			}
		}
	}
	var best uint64
	consider := func(path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			return
		}
		s := strings.TrimSpace(string(b))
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil || v == 0 || v >= 1<<62 { // "max", or v1's "no limit"
			return
		}
		if best == 0 || v < best {
			best = v
		}
	}
	consider("/sys/fs/cgroup/memory.max")
	if v2 != "" && v2 != "/" {
		consider(filepath.Join("/sys/fs/cgroup", v2, "memory.max"))
	}
	consider("/sys/fs/cgroup/memory/memory.limit_in_bytes")
	if v1 != "" && v1 != "/" {
		consider(filepath.Join("/sys/fs/cgroup/memory", v1, "memory.limit_in_bytes"))
	}
	return best
}

// goMemLimit returns the Go runtime's memory limit when one is set
// (GOMEMLIMIT or debug.SetMemoryLimit), else 0.
func goMemLimit() uint64 {
	if l := debug.SetMemoryLimit(-1); l > 0 && l < math.MaxInt64 {
		return uint64(l)
	}
	return 0
}

// CheckMemory returns an error when an allocation plan of need bytes
// (float64 so that overflowing products stay comparable) is larger than
// MemoryLimit. what says what would be allocated ("--n 1048576: the
// distance triangle"); the message names the need and the limit.
func CheckMemory(what string, need float64) error {
	if lim := MemoryLimit(); !(need <= float64(lim)) {
		return fmt.Errorf("%s would need %s of memory; the limit is %s (%.0f%% of the memory this process may use)",
			what, FormatBytes(need), FormatBytes(float64(lim)), MemoryFraction*100)
	}
	return nil
}

// FormatBytes renders a byte count with a binary unit (KiB .. PiB).
func FormatBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", b)
	}
	return fmt.Sprintf("%.1f %s", b, units[i])
}

// TriangleBytes is the memory of a packed distance triangle of n items.
func TriangleBytes(n int) float64 {
	return float64(n) * float64(n-1) / 2 * 8
}
