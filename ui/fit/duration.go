package fit

import (
	"fmt"
	"math"
	"time"
)

// DurationText writes a time left for a person: "45 s", "3 min 20 s",
// "2 h 5 min" (seconds rounded up).
func DurationText(d time.Duration) string {
	s := int(math.Ceil(d.Seconds()))
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s < 3600:
		return fmt.Sprintf("%d min %d s", s/60, s%60)
	}
	return fmt.Sprintf("%d h %d min", s/3600, s%3600/60)
}
