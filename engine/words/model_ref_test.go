package words

import (
	"burescope/engine"
	"math"
)

// PairScore returns the pseudo dot product [mu_i : nu_j] between the input
// measure of word i and the context measure of word j, computed by the
// training kernel (the quantity the hinge loss is made of).
func (m *Model) PairScore(i, j int) float64 {
	d := m.Dim
	fl := m.factorLen()
	dot := engine.Dot(m.Means[i*d:(i+1)*d], m.CMeans[j*d:(j+1)*d])
	if m.Diagonal {
		return dot + crossDiag(m.Factors[i*fl:(i+1)*fl], m.CFactors[j*fl:(j+1)*fl], Eps, nil, nil)
	}
	ws := newPairWS(d, m.Rank)
	if !ws.setCenter(m.Factors[i*fl:(i+1)*fl], Eps) {
		return math.NaN()
	}
	return dot + ws.cross(m.CFactors[j*fl:(j+1)*fl], Eps, false)
}
