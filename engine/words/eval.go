package words

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Ranks returns the ranks 1..n of x, ties given their average rank (the
// convention of Spearman's rho with ties).
func Ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && x[idx[j+1]] == x[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for t := i; t <= j; t++ {
			r[idx[t]] = avg
		}
		i = j + 1
	}
	return r
}

// Spearman returns Spearman's rank correlation of x and y: the Pearson
// correlation of their average ranks. It needs at least two pairs, finite
// values and neither x nor y constant.
func Spearman(x, y []float64) (float64, error) {
	if len(x) != len(y) {
		return 0, fmt.Errorf("%d scores against %d", len(x), len(y))
	}
	if len(x) < 2 {
		return 0, fmt.Errorf("%d pairs, need at least 2", len(x))
	}
	for i := range x {
		if math.IsNaN(x[i]) || math.IsInf(x[i], 0) || math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return 0, fmt.Errorf("pair %d: score %v against %v is not finite", i, x[i], y[i])
		}
	}
	rx, ry := Ranks(x), Ranks(y)
	mean := float64(len(x)+1) / 2
	var sxy, sxx, syy float64
	for i := range rx {
		a, b := rx[i]-mean, ry[i]-mean
		sxy += a * b
		sxx += a * a
		syy += b * b
	}
	if sxx == 0 || syy == 0 {
		return 0, errors.New("constant scores: the rank correlation is undefined")
	}
	return sxy / math.Sqrt(sxx*syy), nil
}

// checkLabelled validates scores with boolean labels.
func checkLabelled(score []float64, label []bool) (npos int, err error) {
	if len(score) != len(label) {
		return 0, fmt.Errorf("%d scores against %d labels", len(score), len(label))
	}
	for i, s := range score {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return 0, fmt.Errorf("pair %d: score %v is not finite", i, s)
		}
		if label[i] {
			npos++
		}
	}
	if npos == 0 {
		return 0, errors.New("no positive pairs")
	}
	return npos, nil
}

// thresholds returns the indices sorted by decreasing score and the ends
// of the groups of equal scores in that order.
func thresholds(score []float64) (idx, ends []int) {
	idx = make([]int, len(score))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
	for i := range idx {
		if i+1 == len(idx) || score[idx[i+1]] != score[idx[i]] {
			ends = append(ends, i+1)
		}
	}
	return idx, ends
}

// AveragePrecision returns the average precision of ranking pairs by
// decreasing score against the labels: sum over thresholds of
// (R_k - R_{k-1}) P_k, where tied scores form one threshold (so ties are
// not broken in anyone's favour; scikit-learn's definition).
func AveragePrecision(score []float64, label []bool) (float64, error) {
	npos, err := checkLabelled(score, label)
	if err != nil {
		return 0, err
	}
	idx, ends := thresholds(score)
	var ap float64
	tp, prevRecall, start := 0, 0.0, 0
	for _, e := range ends {
		for _, i := range idx[start:e] {
			if label[i] {
				tp++
			}
		}
		start = e
		recall := float64(tp) / float64(npos)
		ap += (recall - prevRecall) * float64(tp) / float64(e)
		prevRecall = recall
	}
	return ap, nil
}

// BestF1 returns the best F1 score over all thresholds "positive when
// score >= threshold" and that threshold. The threshold is chosen on the
// evaluated pairs themselves (at test time, as the paper reports it), so
// it is an optimistic figure.
func BestF1(score []float64, label []bool) (f1, threshold float64, err error) {
	npos, err := checkLabelled(score, label)
	if err != nil {
		return 0, 0, err
	}
	idx, ends := thresholds(score)
	tp, start := 0, 0
	f1 = -1
	for _, e := range ends {
		for _, i := range idx[start:e] {
			if label[i] {
				tp++
			}
		}
		start = e
		// Predicted positives e, true positives tp, actual positives npos.
		f := 2 * float64(tp) / float64(e+npos)
		if f > f1 {
			f1, threshold = f, score[idx[e-1]]
		}
	}
	return f1, threshold, nil
}
