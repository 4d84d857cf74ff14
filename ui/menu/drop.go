package menu

import (
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
)

// Dropped loads files dropped on the window: one data file, or two files
// that form an Embedding Projector pair (vectors + metadata). Anything
// else is refused with a dialog; the current state is kept.
func (m *Menus) Dropped(_ fyne.Position, uris []fyne.URI) {
	req, err := dropRequest(uris)
	if err != nil {
		m.act.ShowError("Cannot open the dropped files", err)
		return
	}
	m.act.Open(req.Name, req.Metadata)
}

// loadRequest is one dataset to open: a file and, for an Embedding
// Projector pair, its metadata file.
type loadRequest struct {
	Name     string
	Metadata string
}

// dropRequest turns dropped URIs into a load request: one local file, or
// a pair where the metadata file is the one whose name mentions "meta"
// (the Projector's convention, e.g. vectors.tsv + metadata.tsv).
func dropRequest(uris []fyne.URI) (loadRequest, error) {
	var paths []string
	for _, u := range uris {
		if u.Scheme() != "file" {
			return loadRequest{}, fmt.Errorf("%s: only local files can be opened", u.String())
		}
		paths = append(paths, u.Path())
	}
	switch len(paths) {
	case 0:
		return loadRequest{}, fmt.Errorf("nothing was dropped")
	case 1:
		return loadRequest{Name: paths[0]}, nil
	case 2:
		a, b := paths[0], paths[1]
		am, bm := isMetadataName(a), isMetadataName(b)
		switch {
		case bm && !am:
			return loadRequest{Name: a, Metadata: b}, nil
		case am && !bm:
			return loadRequest{Name: b, Metadata: a}, nil
		}
		return loadRequest{}, fmt.Errorf("two files dropped (%s, %s): for an Embedding Projector pair, one must be the metadata file (its name containing \"meta\")",
			filepath.Base(a), filepath.Base(b))
	}
	return loadRequest{}, fmt.Errorf("%d files dropped: drop one data file, or a vectors + metadata pair", len(paths))
}

func isMetadataName(p string) bool {
	return strings.Contains(strings.ToLower(filepath.Base(p)), "meta")
}
