package widget

import (
	"fmt"

	"burescope/ui/fit"
)

// suggestMax is the most suggestions the search box offers.
const suggestMax = 30

// Search is the search box above the canvas: while the user types it
// offers the labels that match (prefix matches first) under the box, and
// on Enter or a picked suggestion it finds the item (fit.FindLabel: the
// label equal to the text, else the first containing it) or says in the
// box that none matches.
type Search struct {
	// Entry is the box itself, for the toolbar.
	Entry *CompletionEntry

	labels func() []string // the labels of what the canvas shows (nil: none)
	found  func(i int)     // item i was found
	clear  func()          // the box was emptied or nothing matched
	idx    *LabelIndex     // the suggestions of the labels last seen
	err    error           // why the last search found nothing (nil: found)
}

// NewSearch returns the search box over labels: found runs with the
// item found, clear when the box is emptied or nothing matches (all on
// the UI goroutine).
func NewSearch(labels func() []string, found func(i int), clear func()) *Search {
	s := &Search{Entry: NewCompletionEntry(), labels: labels, found: found, clear: clear}
	s.Entry.SetPlaceHolder("Search…")
	s.Entry.OnSubmitted = s.Find
	s.Entry.OnPicked = s.Find
	s.Entry.OnChanged = s.suggest
	return s
}

// Err is why the last search found nothing (nil: it found an item).
func (s *Search) Err() error { return s.err }

// suggest offers the labels matching the search text (prefix matches
// first) under the search box; an empty box clears the selection.
func (s *Search) suggest(q string) {
	if q == "" {
		s.clear()
	}
	labels := s.labels()
	if len(labels) == 0 {
		s.Entry.SetOptions(nil)
		s.Entry.HideCompletion()
		return
	}
	if s.idx == nil || !sameLabels(s.idx.Labels(), labels) {
		s.idx = NewLabelIndex(labels)
	}
	idx := s.idx.Match(q, suggestMax)
	opts := make([]string, len(idx))
	for k, i := range idx {
		opts[k] = labels[i]
	}
	if len(opts) == 1 && opts[0] == q {
		opts = nil // the whole label is typed: nothing left to suggest
	}
	s.Entry.SetOptions(opts)
	if !s.Entry.CompletionShown() {
		s.Entry.ShowCompletion()
	}
}

// sameLabels reports whether a and b are the same slice.
func sameLabels(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Find selects the first item whose label contains q (case-insensitive),
// preferring an exact match; with none it says so in the box.
func (s *Search) Find(q string) {
	labels := s.labels() // the fit's, or the explored embedding's
	if labels == nil {
		return
	}
	i := fit.FindLabel(labels, q)
	if i < 0 {
		s.err = fmt.Errorf("no item matches %q", q)
		s.Entry.SetValidationError(s.err)
		s.clear()
		return
	}
	s.err = nil
	s.Entry.SetValidationError(nil)
	s.found(i)
}
