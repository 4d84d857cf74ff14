package datasets

import (
	"bufio"
	"fmt"
	"os"
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
// allocate: MemoryFraction of the machine's physical memory (MemTotal of
// /proc/meminfo; 16 GiB where that cannot be read).
func MemoryLimit() uint64 {
	memOnce.Do(func() {
		memTotal = fallbackMemory
		f, err := os.Open("/proc/meminfo")
		if err != nil {
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				fields := strings.Fields(rest)
				if len(fields) >= 1 {
					if kb, err := strconv.ParseUint(fields[0], 10, 64); err == nil && kb > 0 {
						memTotal = kb << 10
					}
				}
				return
			}
		}
	})
	return uint64(float64(memTotal) * MemoryFraction)
}

// CheckMemory returns an error when an allocation plan of need bytes
// (float64 so that overflowing products stay comparable) is larger than
// MemoryLimit. what says what would be allocated ("--n 1048576: the
// distance triangle"); the message names the need and the limit.
func CheckMemory(what string, need float64) error {
	if lim := MemoryLimit(); !(need <= float64(lim)) {
		return fmt.Errorf("%s would need %s of memory; the limit is %s (%.0f%% of this machine's memory)",
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
