package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/render"
)

// TestFitShepard: fit --shepard draws the Shepard diagram: two panels
// whose titles give the elliptical fit's stress-1 and the point-MDS
// baseline's, equal to the summary line's stress1 and points_stress1
// (recomputed from the pairs drawn); the SVG parses strictly.
func TestFitShepard(t *testing.T) {
	out := filepath.Join(t.TempDir(), "shepard.svg")
	var so, se bytes.Buffer
	if code := Main([]string{"fit", "builtin:pisa2015", "--iters", "200", "--shepard", out}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	lines := strings.Split(strings.TrimSpace(so.String()), "\n")
	var res struct {
		Stress1       float64 `json:"stress1"`
		PointsStress1 float64 `json:"points_stress1"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	var texts []string
	in := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			in = e.Name.Local == "text"
		case xml.CharData:
			if in {
				texts = append(texts, string(e))
			}
		case xml.EndElement:
			in = false
		}
	}
	all := strings.Join(texts, "\n")
	for _, w := range []string{"elliptical MDS: stress-1 " + render.Num(res.Stress1), "point MDS: stress-1 " + render.Num(res.PointsStress1), "595 pairs", "W2 distance", "Euclidean distance"} {
		if !strings.Contains(all, w) {
			t.Errorf("Shepard SVG lacks %q:\n%s", w, all)
		}
	}
	if code := Main([]string{"fit", "builtin:wine", "--pairs", "sampled", "--shepard", out}, &so, &se); code != 2 {
		t.Errorf("sampled fit with --shepard: exit %d, want 2 (refused)", code)
	}
}
