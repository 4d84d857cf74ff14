package render

import "math"

// fixtureScene is the small deterministic 2D scene of the golden tests:
// twelve measures in three classes on a ring, with rotations and
// eccentricities varying by item, one Dirac (item 10) and one rank-1
// measure (item 11).
func fixtureScene() *Scene {
	const n = 12
	sc := &Scene{Dim: 2, Means: make([]float64, 2*n), Scales: make([]float64, 4*n), Tau: 1, Family: "gaussian",
		Dataset: "fixture", Iterations: 500, Stress1: 0.0123}
	classes := []string{"alpha", "beta", "gamma"}
	for i := 0; i < n; i++ {
		t := 2 * math.Pi * float64(i) / n
		r := 3 + 0.6*math.Sin(3*t)
		sc.Means[2*i], sc.Means[2*i+1] = r*math.Cos(t), r*math.Sin(t)
		a, b := 0.5+0.35*math.Cos(float64(i)), 0.25+0.1*float64(i%3)
		th := 0.4 * float64(i)
		m := FromEigen(a*a, b*b, math.Cos(th), math.Sin(th))
		switch i {
		case 10:
			m = Sym2{}
		case 11:
			m = FromEigen(0.8, 0, math.Cos(th), math.Sin(th))
		}
		copy(sc.Scales[4*i:], []float64{m.A, m.B, m.B, m.C})
		sc.Labels = append(sc.Labels, "item-"+string(rune('A'+i)))
		sc.Classes = append(sc.Classes, classes[i%3])
		sc.PerPoint = append(sc.PerPoint, 0.01*float64(1+(i*7)%n))
	}
	return sc
}

// fixture3D is a deterministic 3D scene of eight ellipsoids on the
// corners of a cube, each elongated along a different direction.
func fixture3D() *Scene {
	const n = 8
	sc := &Scene{Dim: 3, Means: make([]float64, 3*n), Scales: make([]float64, 9*n), Tau: 1, Family: "gaussian"}
	for i := 0; i < n; i++ {
		for k := 0; k < 3; k++ {
			sc.Means[3*i+k] = 2 * float64((i>>k)&1)
		}
		// C = diag(0.05) + v v^T with v along a corner-dependent direction.
		v := [3]float64{0.5 + 0.1*float64(i), 0.3 * float64(i%3), 0.2 * float64(i%2)}
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				c := v[a] * v[b]
				if a == b {
					c += 0.05
				}
				sc.Scales[9*i+3*a+b] = c
			}
		}
		sc.Labels = append(sc.Labels, string(rune('P'+i)))
	}
	return sc
}
