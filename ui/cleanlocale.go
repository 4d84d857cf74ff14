package ui

// Imported for its side effect, which must happen before Fyne's packages
// initialise: no "Error parsing user locale C" under LANG=C.UTF-8. Go
// initialises burescope/... packages before fyne.io/... ones once their
// own imports are ready, so this import is enough for the whole binary.
import _ "burescope/ui/internal/cleanlocale"
