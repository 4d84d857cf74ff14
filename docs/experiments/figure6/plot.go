//go:build ignore

// Command plot draws the Figure 6 experiment (docs/hypernymy.md): MAP and
// mean rank against the dimension, one line per series of
// results.jsonl (figure6.sh's output: "set", "protocol", "dim", ...),
// under both ranking protocols. Run by hand:
//
//	go run docs/experiments/figure6/plot.go RESULTS.jsonl OUT_PREFIX
//
// writes OUT_PREFIX_map.png and OUT_PREFIX_rank.png.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"image/color"
	"log"
	"os"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

type result struct {
	Set           string  `json:"set"`
	Model         string  `json:"model"`
	Protocol      string  `json:"protocol"`
	Dim           int     `json:"dim"`
	MeanRank      float64 `json:"mean_rank"`
	MAP           float64 `json:"map"`
	UndirMeanRank float64 `json:"undir_mean_rank"`
	UndirMAP      float64 `json:"undir_map"`
}

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: go run plot.go RESULTS.jsonl OUT_PREFIX")
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	// series name -> dim -> (rank, map)
	series := map[string]map[int][2]float64{}
	add := func(name string, d int, rank, m float64) {
		if !(rank > 0) {
			return // not reported under this protocol (e.g. published figures)
		}
		if series[name] == nil {
			series[name] = map[int][2]float64{}
		}
		series[name][d] = [2]float64{rank, m}
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			log.Fatalf("%s: %v", os.Args[1], err)
		}
		name := fmt.Sprintf("%s, train %s", r.Set, r.Protocol)
		if r.Model != "" {
			name = r.Set + ", " + r.Model // a published or peer model
		}
		add(name+", rank directed", r.Dim, r.MeanRank, r.MAP)
		add(name+", rank undirected", r.Dim, r.UndirMeanRank, r.UndirMAP)
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	names := make([]string, 0, len(series))
	for k := range series {
		names = append(names, k)
	}
	sort.Strings(names)
	for which, label := range []string{"mean rank", "MAP"} {
		p := plot.New()
		p.Title.Text = "WordNet reconstruction: " + label + " against the dimension"
		p.X.Label.Text = "dimension d (log scale)"
		p.X.Scale = plot.LogScale{} // d = 2 to 50: the small d would crowd a linear axis
		var ticks []plot.Tick
		for _, d := range []int{2, 3, 4, 5, 10, 20, 50} {
			ticks = append(ticks, plot.Tick{Value: float64(d), Label: fmt.Sprint(d)})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.Y.Label.Text = label
		if which == 0 {
			p.Y.Scale = plot.LogScale{}
			p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		}
		for k, name := range names {
			var pts plotter.XYs
			dims := make([]int, 0)
			for d := range series[name] {
				dims = append(dims, d)
			}
			sort.Ints(dims)
			for _, d := range dims {
				pts = append(pts, plotter.XY{X: float64(d), Y: series[name][d][which]})
			}
			l, s, err := plotter.NewLinePoints(pts)
			if err != nil {
				log.Fatal(err)
			}
			c := plotColor(k)
			l.Color, s.Color = c, c
			// More series than colours: each colour's second and later
			// uses get another point shape; the undirected ranking is dashed.
			shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}}
			s.Shape = shapes[(k/8)%len(shapes)]
			s.Radius = vg.Points(3.5)
			if strings.HasSuffix(name, "rank undirected") {
				l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			}
			p.Add(l, s)
			p.Legend.Add(name, l, s)
		}
		p.Legend.Top = which == 0
		if which == 0 {
			// Room above the points for the legend: 2.5 decades.
			top := 1.0
			for _, sr := range series {
				for _, v := range sr {
					top = max(top, v[0])
				}
			}
			p.Y.Max = top * 300
		}
		p.Legend.Left = false
		out := os.Args[2] + []string{"_rank.png", "_map.png"}[which]
		if err := p.Save(9*vg.Inch, 6*vg.Inch, out); err != nil {
			log.Fatal(err)
		}
		fmt.Println("wrote", out)
	}
}

func plotColor(k int) color.Color {
	pal := []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
		{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255}}
	return pal[k%len(pal)]
}
