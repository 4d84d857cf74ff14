package render

import (
	"math"
	"strconv"
)

// Num formats x for legends, captions and status lines: at most four
// significant digits, no binary-rounding tail ("2.9", not
// "2.9000000000000004"), plain notation from 1e-4 to 1e6 and exponent
// notation outside; NaN and infinities as "NaN", "inf", "-inf".
func Num(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case x == 0:
		return "0"
	}
	ax := math.Abs(x)
	if ax >= 1e-4 && ax < 1e6 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}
