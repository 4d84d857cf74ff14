package prefs

import (
	"io"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"burescope/ui/prefstore"
)

// prefsApp is the Fyne app with its Preferences replaced by the app's own
// store (ui/prefstore, docs/ui.md "Preferences").
type prefsApp struct {
	fyne.App
	prefs *prefstore.Store
}

// Preferences returns the app's own preference store.
func (a prefsApp) Preferences() fyne.Preferences { return a.prefs }

// NewFyneApp creates the Fyne app, whose application ID is id, so that
// Fyne keeps no preference file of its own: Fyne persists (and watches, and rewrites at exit) preferences
// only for an app created with an ID, and that rewrite is racy (a reload
// can read the file truncated and print "Preferences load error: EOF").
// The app is created without an ID, with a name set so that Fyne does not
// take the ID from a FyneApp.toml in the working directory; the ID is set
// right after, so UniqueID, Storage and the settings that need it work and
// Fyne never logs "Preferences API requires a unique ID". Preferences live
// in prefstore.DefaultPath, migrated once from Fyne's old file; close the
// returned store after Run.
func NewFyneApp(id string, logw io.Writer) (fyne.App, *prefstore.Store) {
	app.SetMetadata(fyne.AppMetadata{Name: "Burescope"})
	fa := app.NewWithID("")
	meta := fa.Metadata()
	meta.ID = id
	app.SetMetadata(meta)

	var st *prefstore.Store
	if path, err := prefstore.DefaultPath(); err != nil {
		logw.Write([]byte("burescope: preferences: " + err.Error() + "; kept in memory for this run\n"))
		st = prefstore.Open("", "", logw)
	} else {
		old, _ := prefstore.FynePath(id)
		st = prefstore.Open(path, old, logw)
	}
	st.MergeList(prefRecent, maxRecent) // two instances keep each other's recent files
	return prefsApp{App: fa, prefs: st}, st
}
