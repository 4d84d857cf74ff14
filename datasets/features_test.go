package datasets

import (
	"encoding/csv"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"burescope/assets"
	"burescope/engine"
)

// readAssetRows parses an embedded CSV with encoding/csv and returns the
// header and the numeric columns from skip on, as an independent reference
// for the loader.
func readAssetRows(t *testing.T, file string, skip, last int) (header []string, rows [][]float64) {
	t.Helper()
	data, err := fs.ReadFile(assets.FS(), file)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs[1:] {
		var v []float64
		for _, s := range r[skip : len(r)-last] {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			v = append(v, x)
		}
		rows = append(rows, v)
	}
	return recs[0], rows
}

// checkDistances compares ds.Dist with floats.Distance between rows.
func checkDistances(t *testing.T, name string, ds *Dataset, rows [][]float64) {
	t.Helper()
	n := len(rows)
	if ds.Len() != n {
		t.Fatalf("%s: n = %d, want %d", name, ds.Len(), n)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			want := floats.Distance(rows[i], rows[j], 2)
			got := ds.Dist[engine.PairIndex(n, i, j)]
			if !(math.Abs(got-want) <= 1e-12*math.Max(1, want)) {
				t.Fatalf("%s: D(%d,%d) = %v, want %v", name, i, j, got, want)
			}
		}
	}
}

func TestPISADistances(t *testing.T) {
	ds, err := Load("builtin:pisa2015", Options{})
	if err != nil {
		t.Fatal(err)
	}
	header, rows := readAssetRows(t, assets.PISA2015, 2, 0)
	if ds.Standardized {
		t.Errorf("PISA scores share one unit and should not be standardised by default")
	}
	if !reflect.DeepEqual(ds.FeatureNames, header[2:]) {
		t.Errorf("features %v, want %v", ds.FeatureNames, header[2:])
	}
	if !reflect.DeepEqual(ds.IgnoredColumns, []string{"code"}) || ds.Classes != nil {
		t.Errorf("code column: ignored %v, classes %v; want code ignored, no classes", ds.IgnoredColumns, ds.Classes)
	}
	// assets/ATTRIBUTION.md: alphabetical OECD members, Korea renamed.
	if ds.Labels[0] != "Australia" || ds.Labels[34] != "United States" {
		t.Errorf("labels %q ... %q", ds.Labels[0], ds.Labels[34])
	}
	checkDistances(t, "pisa2015", ds, rows)
	// Australia (line 2) and Austria (line 3) of pisa2015_oecd.csv by hand:
	// the nine score differences are 2.84, 7.86, 13.34, 18.03, 23.79,
	// 12.34, 14.95, 23.39, 6.68; squares sum to 2106.3384; sqrt ~ 45.8949.
	if got := ds.Dist[engine.PairIndex(35, 0, 1)]; !(math.Abs(got-45.8949) <= 1e-4) {
		t.Errorf("D(Australia, Austria) = %v, want 45.8949", got)
	}
}

func TestWineStandardized(t *testing.T) {
	ds, err := Load("builtin:wine", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !ds.Standardized {
		t.Fatal("wine mixes units (Proline ~1000, Hue ~1) and should be standardised by default")
	}
	_, rows := readAssetRows(t, assets.Wine, 0, 1)
	n, p := len(rows), len(rows[0])
	z := make([][]float64, n)
	for i := range z {
		z[i] = make([]float64, p)
	}
	col := make([]float64, n)
	for k := 0; k < p; k++ {
		for i := range rows {
			col[i] = rows[i][k]
		}
		mean, sd := stat.MeanStdDev(col, nil) // sample sd, n-1
		if !(math.Abs(mean-ds.FeatureMeans[k]) <= 1e-12*math.Abs(mean)) || !(math.Abs(sd-ds.FeatureSDs[k]) <= 1e-12*sd) {
			t.Errorf("column %d: mean, sd = %v, %v; gonum says %v, %v", k, ds.FeatureMeans[k], ds.FeatureSDs[k], mean, sd)
		}
		for i := range rows {
			z[i][k] = (rows[i][k] - mean) / sd
			col[i] = (ds.Features[i*p+k] - ds.FeatureMeans[k]) / ds.FeatureSDs[k]
		}
		zm, zs := stat.MeanStdDev(col, nil)
		if !(math.Abs(zm) <= 1e-12) || !(math.Abs(zs-1) <= 1e-12) {
			t.Errorf("standardised column %d: mean %v sd %v, want 0 and 1", k, zm, zs)
		}
	}
	checkDistances(t, "wine", ds, z)

	off := false
	raw, err := Load("builtin:wine", Options{Standardize: &off})
	if err != nil {
		t.Fatal(err)
	}
	if raw.Standardized {
		t.Error("Standardize=false ignored")
	}
	checkDistances(t, "wine raw", raw, rows)
}

func TestIris(t *testing.T) {
	ds, err := Load("builtin:iris", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Standardized {
		t.Error("iris is all centimetres (sd ratio ~4) and should not be standardised by default")
	}
	_, rows := readAssetRows(t, assets.Iris, 0, 1)
	checkDistances(t, "iris", ds, rows)
	// assets/ATTRIBUTION.md: rows 102 and 143 are the same flower, 5.8,2.7,5.1,1.9.
	i, j := 101, 142
	if ds.Labels[i] != "102" || ds.Labels[j] != "143" {
		t.Errorf("labels %q %q, want row numbers 102 and 143", ds.Labels[i], ds.Labels[j])
	}
	if d := ds.Dist[engine.PairIndex(150, i, j)]; d != 0 {
		t.Errorf("D(102, 143) = %v, want 0", d)
	}
	if ds.Classes[0] != "setosa" || ds.Classes[149] != "virginica" {
		t.Errorf("classes %q %q", ds.Classes[0], ds.Classes[149])
	}
	on := true
	st, err := Load("builtin:iris", Options{Standardize: &on})
	if err != nil || !st.Standardized {
		t.Fatalf("Standardize=true: %v, standardized %v", err, st != nil && st.Standardized)
	}
}

// TestFeatureColumns checks the automatic and explicit choice of label,
// class and feature columns on small tables.
func TestFeatureColumns(t *testing.T) {
	tests := []struct {
		name, text      string
		opt             Options
		labels, classes []string
		classCol        string
		features        []string
		ignored         []string
		x               []float64
	}{
		{
			name:     "label and class",
			text:     "name,kind,a,b\nw,p,1,2\nx,p,3,4\ny,q,5,6\nz,q,7,8\n",
			labels:   []string{"w", "x", "y", "z"},
			classes:  []string{"p", "p", "q", "q"},
			classCol: "kind", features: []string{"a", "b"},
			x: []float64{1, 2, 3, 4, 5, 6, 7, 8},
		},
		{
			name:   "no header",
			text:   "1\t2\n3\t4\n5\t6\n",
			labels: []string{"1", "2", "3"}, features: []string{"x1", "x2"},
			x: []float64{1, 2, 3, 4, 5, 6},
		},
		{
			name:   "no header with label column",
			text:   "a,1,2\nb,3,4\n",
			labels: []string{"a", "b"}, features: []string{"x2", "x3"},
			x: []float64{1, 2, 3, 4},
		},
		{
			name:   "identifier is not a class",
			text:   "country,code,s\nA,AAA,1\nB,BBB,2\nC,CCC,3\n",
			labels: []string{"A", "B", "C"}, features: []string{"s"}, ignored: []string{"code"},
			x: []float64{1, 2, 3},
		},
		{
			name:   "explicit columns by name and number",
			text:   "id,g,v\n10,u,1\n20,u,2\n30,t,3\n",
			opt:    Options{LabelColumn: "ID", ClassColumn: "2"},
			labels: []string{"10", "20", "30"}, classes: []string{"u", "u", "t"}, classCol: "g",
			features: []string{"v"}, x: []float64{1, 2, 3},
		},
		{
			name:   "empty column ignored, BOM and CRLF",
			text:   "\ufeffname;v;\r\na;1.5e0;\r\nb;2;\r\n",
			labels: []string{"a", "b"}, features: []string{"v"}, x: []float64{1.5, 2},
		},
	}
	for _, test := range tests {
		ds, err := LoadBytes([]byte(test.text), "t.csv", test.opt)
		if err != nil {
			t.Errorf("%s: %v", test.name, err)
			continue
		}
		if ds.Kind != KindFeatures || !reflect.DeepEqual(ds.Labels, test.labels) || !reflect.DeepEqual(ds.Classes, test.classes) ||
			ds.ClassColumn != test.classCol || !reflect.DeepEqual(ds.FeatureNames, test.features) ||
			!reflect.DeepEqual(ds.IgnoredColumns, test.ignored) || !reflect.DeepEqual(ds.Features, test.x) {
			t.Errorf("%s: got kind %s labels %q classes %q (%q) features %q ignored %q x %v", test.name, ds.Kind,
				ds.Labels, ds.Classes, ds.ClassColumn, ds.FeatureNames, ds.IgnoredColumns, ds.Features)
		}
	}
}

// TestFeatureOverflow: values near the float64 limit give finite
// distances when the true distance is representable.
func TestFeatureOverflow(t *testing.T) {
	ds, err := LoadBytes([]byte("v\n1e300\n-1e300\n"), "big.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := ds.Dist[0]; !(math.Abs(d-2e300) <= 1e286) {
		t.Errorf("distance %v, want 2e300", d)
	}
	if _, err := LoadBytes([]byte("v\n1.5e308\n-1.5e308\n"), "huge.csv", Options{}); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("distance beyond float64: error %v", err)
	}
}

// TestStandardizeRatioRule checks both sides of the automatic rule of
// doc.go: standardise when the largest column standard deviation exceeds
// StandardizeRatio (10) times the smallest. Column y is c times column x,
// so the ratio is exactly c. Reference distances: the raw Euclidean
// distance |dx| sqrt(1 + c^2) below the threshold, and above it the
// z-score distance |dx| sqrt(2) / sd(x) with sd(x) = sqrt(5/3) (sample
// standard deviation of 0, 1, 2, 3).
func TestStandardizeRatioRule(t *testing.T) {
	for _, tc := range []struct {
		c    float64
		want bool
	}{{8, false}, {9.9, false}, {10.5, true}, {12, true}} {
		var b strings.Builder
		b.WriteString("x,y\n")
		for k := 0; k < 4; k++ {
			fmt.Fprintf(&b, "%d,%g\n", k, tc.c*float64(k))
		}
		ds, err := LoadBytes([]byte(b.String()), "f.csv", Options{Kind: KindFeatures})
		if err != nil {
			t.Fatalf("c=%v: %v", tc.c, err)
		}
		if ds.Standardized != tc.want {
			t.Errorf("c=%v: standardized %v, want %v", tc.c, ds.Standardized, tc.want)
		}
		// Pair (0, 3): dx = 3.
		want := 3 * math.Sqrt(1+tc.c*tc.c)
		if tc.want {
			want = 3 * math.Sqrt(2) / math.Sqrt(5.0/3)
		}
		if got := ds.Dist[engine.PairIndex(4, 0, 3)]; !(math.Abs(got-want) <= 1e-12*want) {
			t.Errorf("c=%v: D(0, 3) = %.15g, want %.15g", tc.c, got, want)
		}
	}
}

// A feature table at 1e-300 has the distances of its copy at 1 times
// 1e-300, not 0 (the squares are taken in units of the largest value);
// a table whose rows are all equal is refused (every distance 0).
func TestFeatureTinyScale(t *testing.T) {
	rows := [][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 3}}
	var one, tiny strings.Builder
	one.WriteString("x,y\n")
	tiny.WriteString("x,y\n")
	for _, r := range rows {
		fmt.Fprintf(&one, "%g,%g\n", r[0], r[1])
		fmt.Fprintf(&tiny, "%g,%g\n", r[0]*1e-300, r[1]*1e-300)
	}
	std := false
	load := func(content string) *Dataset {
		t.Helper()
		path := filepath.Join(t.TempDir(), "f.csv")
		os.WriteFile(path, []byte(content), 0o644)
		ds, err := Load(path, Options{Kind: KindFeatures, Standardize: &std})
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	a, b := load(one.String()), load(tiny.String())
	for k := range a.Dist {
		if want := a.Dist[k] * 1e-300; !(math.Abs(b.Dist[k]-want) <= 1e-12*want) {
			t.Fatalf("distance %d at 1e-300 is %g, want %g", k, b.Dist[k], want)
		}
	}
	path := filepath.Join(t.TempDir(), "same.csv")
	os.WriteFile(path, []byte("x,y\n1e-300,2\n1e-300,2\n1e-300,2\n"), 0o644)
	if _, err := Load(path, Options{Kind: KindFeatures}); err == nil || !strings.Contains(err.Error(), "every distance is 0") {
		t.Errorf("equal rows: %v", err)
	}
}
