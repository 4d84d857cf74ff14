// Command shotcheck checks a Burescope window screenshot (see package
// shotcheck) and exits 1 if the canvas shows no ellipses.
package main

import (
	"fmt"
	"image/png"
	"os"

	"burescope/ui/internal/shotcheck"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: shotcheck SHOT.png")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "shotcheck:", err)
		os.Exit(1)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		fmt.Fprintf(os.Stderr, "shotcheck: %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	r, err := shotcheck.Check(img)
	fmt.Printf("shotcheck: %s %dx%d background %v, %.1f%% of the canvas drawn, %d colours\n",
		os.Args[1], r.Width, r.Height, r.Background, 100*r.Drawn, r.Colours)
	if err != nil {
		fmt.Fprintf(os.Stderr, "shotcheck: %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}
