package datasets

import (
	"bytes"
	"strings"
	"testing"
)

// TestNPZCorruptMember: one flipped byte inside a stored member's data
// (so the zip CRC-32 no longer matches) is an error naming the archive
// and the array, never a silently different mean. The byte flipped is
// found by searching for the mean's bit pattern, independently of the
// loader.
func TestNPZCorruptMember(t *testing.T) {
	n, d := 3, 2
	means := []float64{1, 2, 3, 4, 5, 6.5}
	covs := make([]float64, n*d*d)
	for i := 0; i < n; i++ {
		covs[i*d*d] = 1
		covs[i*d*d+3] = 1
	}
	for _, name := range []string{"means", "vars", "labels"} {
		t.Run(name, func(t *testing.T) {
			arrays := map[string][]byte{
				"means":  npyBytes("<f8", false, []int{n, d}, means),
				"vars":   npyBytes("<f8", false, []int{n, d, d}, covs),
				"labels": npyBytes("<U3", false, []int{n}, []string{"abc", "def", "ghi"}),
			}
			good := npzBytes(arrays, false)
			dir := t.TempDir()
			if _, err := LoadNPY(writeFile(t, dir, "ok.npz", good), NPYOptions{}); err != nil {
				t.Fatalf("intact archive: %v", err)
			}
			// The last 8 bytes of the member are its last value; flip one
			// bit of the first of them inside the archive.
			member := arrays[name]
			at := bytes.Index(good, member)
			if at < 0 {
				t.Fatal("member not found stored in the archive")
			}
			bad := bytes.Clone(good)
			bad[at+len(member)-8] ^= 0x01
			path := writeFile(t, dir, "bad.npz", bad)
			_, err := LoadNPY(path, NPYOptions{})
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `array "`+name+`"`) || !strings.Contains(err.Error(), "checksum") {
				t.Errorf("error %v, want one naming %s, array %q and the checksum", err, path, name)
			}
		})
	}
}
