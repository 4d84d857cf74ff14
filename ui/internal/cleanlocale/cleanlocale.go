// Package cleanlocale keeps Fyne quiet under the "C.UTF-8" locale that
// Debian containers and CI machines default to.
//
// Fyne reads the system locale while its packages initialise and logs
// "Error parsing user locale C" when LANG is C.UTF-8 (it splits off "C",
// which is not a BCP 47 tag). Go initialises packages in import-path order
// once their imports are ready, so this package, which imports only os and
// strings and sorts before fyne.io, runs first: when the locale is C or
// POSIX with an encoding suffix and LANGUAGE is unset, it sets LANGUAGE=en,
// the gettext fallback that Fyne consults next. Nothing else changes.
//
// main imports it for its side effect: import _ "burescope/ui/internal/cleanlocale".
package cleanlocale

import (
	"os"
	"strings"
)

func init() {
	if os.Getenv("LANGUAGE") != "" {
		return
	}
	loc := ""
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if loc = os.Getenv(k); loc != "" {
			break
		}
	}
	if strings.HasPrefix(loc, "C.") || strings.HasPrefix(loc, "POSIX.") {
		os.Setenv("LANGUAGE", "en")
	}
}
