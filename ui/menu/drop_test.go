package menu

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
)

func TestDropRequest(t *testing.T) {
	u := func(p string) fyne.URI { return storage.NewFileURI(p) }
	tests := []struct {
		uris    []fyne.URI
		want    loadRequest
		wantErr string
	}{
		{[]fyne.URI{u("/d/a.csv")}, loadRequest{Name: "/d/a.csv"}, ""},
		{[]fyne.URI{u("/d/vectors.tsv"), u("/d/metadata.tsv")}, loadRequest{Name: "/d/vectors.tsv", Metadata: "/d/metadata.tsv"}, ""},
		{[]fyne.URI{u("/d/meta.tsv"), u("/d/vecs.tsv")}, loadRequest{Name: "/d/vecs.tsv", Metadata: "/d/meta.tsv"}, ""},
		{[]fyne.URI{u("/d/a.tsv"), u("/d/b.tsv")}, loadRequest{}, "metadata file"},
		{nil, loadRequest{}, "nothing was dropped"},
	}
	for _, tc := range tests {
		got, err := dropRequest(tc.uris)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: error %v, want %q", tc.uris, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%v: %+v, %v; want %+v", tc.uris, got, err, tc.want)
		}
	}
}
