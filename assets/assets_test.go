package assets

import (
	"io/fs"
	"strings"
	"testing"
)

// TestFiles: every named file is embedded and starts with the header that
// ATTRIBUTION.md documents for it.
func TestFiles(t *testing.T) {
	tests := []struct{ name, firstLine string }{
		{PISA2015, "country,code,math,math_female,math_male,reading,reading_female,reading_male,science,science_female,science_male"},
		{Iris, "sepal length in cm,sepal width in cm,petal length in cm,petal width in cm,class"},
		{Wine, "Alcohol,Malic acid,Ash,Alcalinity of ash,Magnesium,Total phenols,Flavanoids,Nonflavanoid phenols,Proanthocyanins,Color intensity,Hue,OD280/OD315 of diluted wines,Proline,class"},
		{Mammals, "child\tancestor"},
		{Attribution, "# Datasets for MDS / ellipse-embedding experiments"},
	}
	for _, test := range tests {
		b, err := fs.ReadFile(FS(), test.name)
		if err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(string(b), "\n"); first != test.firstLine {
			t.Errorf("%s starts with %q, want %q", test.name, first, test.firstLine)
		}
	}
	if _, err := fs.ReadFile(FS(), "assets.go"); err == nil {
		t.Error("source files must not be embedded")
	}
}
