package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTextColumnsKept: a feature table keeps every text column but the
// labels (the class column included) with its values, for colouring and
// labelling by them; numeric columns stay features.
func TestTextColumnsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	csv := "name,code,class,x,y\na,AA,p,1,2\nb,BB,q,3,1\nc,CC,p,0,5\n"
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := Load(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range ds.TextColumns {
		got = append(got, c.Name+"="+strings.Join(c.Values, "|"))
	}
	if strings.Join(got, " ") != "code=AA|BB|CC class=p|q|p" {
		t.Errorf("text columns %q (labels %q, classes %q, features %q)", got, ds.Labels, ds.Classes, ds.FeatureNames)
	}
	pisa, err := Load("builtin:pisa2015", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pisa.TextColumns) != 1 || pisa.TextColumns[0].Name != "code" || pisa.TextColumns[0].Values[0] != "AUS" {
		t.Errorf("PISA text columns %+v", pisa.TextColumns)
	}
}
