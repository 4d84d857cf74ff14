package render

// NewHitIndex builds the index of lay (O(n) time and memory). The layout
// must not change while the index is used.
func NewHitIndex(lay *Layout) *HitIndex {
	h := &HitIndex{}
	h.Build(lay)
	return h
}
