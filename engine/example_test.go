package engine_test

import (
	"context"
	"fmt"
	"math"

	"burescope/engine"
	"burescope/engine/emds"
)

// W2 between two gaussians with diagonal scales: the squared distance of
// the means plus the squared Hellinger distance of the diagonals
// (docs/math.md, Distance): 3^2 + 4^2 + (1 - 2)^2 + (2 - 1)^2 = 27.
func ExampleW2() {
	a, A := []float64{0, 0}, []float64{1, 0, 0, 4} // mean, scale (row-major 2 x 2)
	b, B := []float64{3, 4}, []float64{4, 0, 0, 1}
	w := engine.W2(engine.Gaussian(), a, A, b, B, 2)
	fmt.Printf("W2 = %.6f, sqrt(27) = %.6f\n", w, math.Sqrt(27))
	// Output: W2 = 5.196152, sqrt(27) = 5.196152
}

// The measure halfway along the W2 geodesic (docs/math.md, Transport map
// and geodesics): the mean moves on a straight line; for commuting scales
// the square root of the scale does too, so halfway between diag(1, 4)
// and diag(4, 1) it is diag(1.5, 1.5), the scale diag(2.25, 2.25).
// Outside [0, 1] the same formula extrapolates.
func ExampleGeodesic() {
	a, A := []float64{0, 0}, []float64{1, 0, 0, 4}
	b, B := []float64{3, 4}, []float64{4, 0, 0, 1}
	for _, t := range []float64{0.5, 1.5} {
		mean, scale, err := engine.Geodesic(a, A, b, B, 2, t)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("t = %g: mean (%.4g, %.4g), scale diag (%.4g, %.4g)\n", t, mean[0], mean[1], scale[0], scale[3])
	}
	// Output:
	// t = 0.5: mean (1.5, 2), scale diag (2.25, 2.25)
	// t = 1.5: mean (4.5, 6), scale diag (6.25, 0.25)
}

// A small elliptical MDS fit: the four corners of a unit square and its
// centre, embedded as gaussians in the plane on the CPU backend. Points
// fit these distances exactly, so the ellipses can too (thin scales).
func ExampleNewOptimizer() {
	pts := [][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0.5, 0.5}}
	n := len(pts)
	dist := make([]float64, n*(n-1)/2) // condensed: pair (i, j), i < j, at PairIndex
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dist[engine.PairIndex(n, i, j)] = math.Hypot(pts[i][0]-pts[j][0], pts[i][1]-pts[j][1])
		}
	}
	opt := emds.DefaultOptions() // d = 2, gaussian, Adam, classical-MDS start
	opt.MaxIter = 2000
	b := emds.NewCPUBackend(1)
	defer b.Close()
	o, err := emds.NewOptimizer(n, dist, opt, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := o.Run(context.Background(), 0, nil); err != nil {
		fmt.Println(err)
		return
	}
	s := o.Latest()
	fmt.Printf("%d measures in d = %d; stress-1 below 0.05: %v\n", s.N, s.Dim, s.Stress1 < 0.05)
	// Output: 5 measures in d = 2; stress-1 below 0.05: true
}
