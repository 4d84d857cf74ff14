package fit

import (
	"context"
	"errors"
	"math"
	"sync/atomic"

	"burescope/engine/emds"
)

// sampledRun is a session's sampled-pair fit (emds.FitSampled): the
// pair source and options, and the standard error of the last stress-1
// estimate. A run cannot be resumed: Start after a pause fits again from
// the initial state.
type sampledRun struct {
	src    emds.PairSource
	opt    emds.SampledOptions
	se     atomic.Uint64 // float64 bits
	epochs int           // epochs of a full run
}

// Sampled reports whether the session fits sampled pairs, and the
// standard error of the current stress-1 estimate and the epoch budget
// when it does.
func (s *Session) Sampled() (sampled bool, se float64, epochs int) {
	s.mu.Lock()
	r := s.smp
	s.mu.Unlock()
	if r == nil {
		return false, 0, 0
	}
	return true, math.Float64frombits(r.se.Load()), r.epochs
}

// startSampledLocked queues a full sampled fit of r, publishing a
// snapshot at every stress-1 evaluation.
func (s *Session) startSampledLocked(r *sampledRun) {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.queueLocked(func() {
		o := r.opt
		o.Publish = func(sn *emds.Snapshot) { s.publishSampled(r, sn) }
		res, err := emds.FitSampled(ctx, r.src, o, func(_ int, _, se float64) { r.se.Store(math.Float64bits(se)) })
		if res != nil && ctx.Err() == nil {
			// (After a pause the result's state may have moved past its
			// last stress-1 evaluation: the published snapshot stays.)
			r.se.Store(math.Float64bits(res.Stress1SE))
			s.publishSampled(r, res.Snapshot)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.smp != r || ctx.Err() != nil {
			return
		}
		s.cancel = nil
		if err != nil && !errors.Is(err, context.Canceled) {
			s.failLocked(err)
			return
		}
		s.setStateLocked(EvFinished)
	})
}

// publishSampled is publish for the sampled run r.
func (s *Session) publishSampled(r *sampledRun, snap *emds.Snapshot) {
	s.publishIf(func() bool { return s.smp == r }, snap)
}
