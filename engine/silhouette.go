package engine

import "math"

// Silhouette returns the mean silhouette coefficient (Rousseeuw 1987) of
// the points x (n*d) grouped by classes (n labels): for each point,
// (b - a) / max(a, b), where a is its mean Euclidean distance to the other
// points of its class and b the smallest mean distance to the points of
// another class; points alone in their class count 0. It is in [-1, 1]:
// near 1 when classes are compact and apart. NaN with fewer than 2
// classes.
func Silhouette(x []float64, n, d int, classes []string) float64 {
	id := map[string]int{}
	cls := make([]int, n)
	for i, c := range classes[:n] {
		k, ok := id[c]
		if !ok {
			k = len(id)
			id[c] = k
		}
		cls[i] = k
	}
	m := len(id)
	if m < 2 {
		return math.NaN()
	}
	size := make([]float64, m)
	for _, k := range cls {
		size[k]++
	}
	sum := make([]float64, m)
	var total float64
	for i := 0; i < n; i++ {
		clear(sum)
		xi := x[i*d : (i+1)*d]
		for j := 0; j < n; j++ {
			if j != i {
				sum[cls[j]] += math.Sqrt(SqDist(xi, x[j*d:(j+1)*d]))
			}
		}
		own := cls[i]
		if size[own] < 2 {
			continue
		}
		a := sum[own] / (size[own] - 1)
		b := math.Inf(1)
		for k := 0; k < m; k++ {
			if k != own && size[k] > 0 {
				b = math.Min(b, sum[k]/size[k])
			}
		}
		if mx := math.Max(a, b); mx > 0 {
			total += (b - a) / mx
		}
	}
	return total / float64(n)
}
