package render

import (
	"fmt"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
)

// ParseLength reads a figure dimension such as "6in", "15cm", "120mm",
// "400pt" or "1200px" (pixels at dpi); a bare number is in inches.
func ParseLength(s string, dpi int) (vg.Length, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	units := []struct {
		suffix string
		per    vg.Length
	}{
		{"in", vg.Inch}, {"cm", vg.Centimeter}, {"mm", vg.Millimeter}, {"pt", vg.Points(1)},
		{"px", vg.Inch / vg.Length(max(dpi, 1))},
	}
	per := vg.Inch
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, per = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.per
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0) || v > 1e5 {
		return 0, fmt.Errorf("invalid length %q (want a positive number with in, cm, mm, pt or px)", s)
	}
	l := vg.Length(v) * per
	if l > 200*vg.Inch {
		return 0, fmt.Errorf("length %q is larger than 200 inches", s)
	}
	return l, nil
}
