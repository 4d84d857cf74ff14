package datasets

import (
	"encoding/json"
	"math"
	"strconv"
	"unsafe"

	"burescope/engine"
)

// parseEmbeddingFast reads a well-formed embedding file with covariances
// (the layout WriteEmbeddingJSON writes: no other keys, every number a
// finite JSON number, uniform shapes) several times faster than the
// encoding/json decoder, which turns each of the n d^2 numbers into a
// json.Number first: 82,115 items at d = 10 (a 190 MB file) are 8.3
// million numbers. Each number is converted by strconv.ParseFloat, as
// jsonFloat does, so the values are the same bits. It reports false on
// anything else, including every error, and the caller then decodes the
// file with encoding/json, which gives the errors their messages; the
// header and the scales are checked by the same code (embeddingHeader,
// finishEmbedding) on both paths.
func parseEmbeddingFast(file string, data []byte, limit int) (*engine.Embedding, bool) {
	p := fastJSON{b: data}
	var f embeddingFile
	var means, covs []float64
	var meanRows, meanCols, covMats, covRows, covCols int
	seen := map[string]bool{}
	p.space()
	if !p.byte('{') {
		return nil, false
	}
	for {
		p.space()
		key, ok := p.str()
		if !ok || seen[key] {
			return nil, false
		}
		seen[key] = true
		p.space()
		if !p.byte(':') {
			return nil, false
		}
		p.space()
		switch key {
		case "format", "family":
			s, ok := p.str()
			if !ok {
				return nil, false
			}
			if key == "format" {
				f.Format = &s
			} else {
				f.Family = &s
			}
		case "tau":
			tok, ok := p.number()
			if !ok {
				return nil, false
			}
			n := json.Number(tok)
			f.Tau = &n
		case "dim":
			tok, ok := p.number()
			if !ok {
				return nil, false
			}
			d, err := strconv.Atoi(tok)
			if err != nil {
				return nil, false
			}
			f.Dim = &d
		case "labels", "classes":
			if !p.byte('[') {
				return nil, false
			}
			p.space()
			if key == "classes" {
				f.Classes = []string{}
			}
			if !p.byte(']') {
				for {
					p.space()
					s, ok := p.str()
					if !ok {
						return nil, false
					}
					if key == "classes" {
						f.Classes = append(f.Classes, s)
					} else {
						f.Labels = append(f.Labels, s)
					}
					p.space()
					if p.byte(']') {
						break
					}
					if !p.byte(',') {
						return nil, false
					}
				}
			}
		case "means":
			if f.Dim != nil && len(f.Labels) > 0 && len(f.Labels) <= limit && *f.Dim <= MaxDim {
				means = make([]float64, 0, len(f.Labels)**f.Dim)
			}
			if means, meanRows, meanCols, ok = p.matrix(means); !ok {
				return nil, false
			}
		case "covariances":
			if f.Dim != nil && len(f.Labels) > 0 && len(f.Labels) <= limit && *f.Dim <= MaxDim {
				covs = make([]float64, 0, len(f.Labels)**f.Dim**f.Dim)
			}
			if !p.byte('[') {
				return nil, false
			}
			p.space()
			if !p.byte(']') {
				for {
					p.space()
					var r, c int
					if covs, r, c, ok = p.matrix(covs); !ok || (covMats > 0 && (r != covRows || c != covCols)) {
						return nil, false
					}
					covMats, covRows, covCols = covMats+1, r, c
					p.space()
					if p.byte(']') {
						break
					}
					if !p.byte(',') {
						return nil, false
					}
				}
			}
		default: // factors, unknown keys: the decoder's business
			return nil, false
		}
		p.space()
		if p.byte('}') {
			break
		}
		if !p.byte(',') {
			return nil, false
		}
	}
	p.space()
	if p.i != len(p.b) {
		return nil, false
	}
	fam, d, n, err := embeddingHeader(file, data, &f, limit)
	if err != nil || meanRows != n || meanCols != d || covMats != n || covRows != d || covCols != d || n*d*d > maxEmbeddingValues {
		return nil, false
	}
	if f.Classes != nil && len(f.Classes) != n {
		return nil, false
	}
	e := &engine.Embedding{Family: fam, Dim: d, Labels: f.Labels, Classes: f.Classes, Means: means, Scales: covs}
	if err := finishEmbedding(file, data, e, "covariances"); err != nil {
		return nil, false
	}
	return e, true
}

// fastJSON is a cursor over JSON text for parseEmbeddingFast.
type fastJSON struct {
	b []byte
	i int
}

// space skips JSON whitespace.
func (p *fastJSON) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// byte consumes c if it is next.
func (p *fastJSON) byte(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a JSON string (escapes decoded by encoding/json).
func (p *fastJSON) str() (string, bool) {
	if !p.byte('"') {
		return "", false
	}
	start, esc := p.i, false
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if !esc {
				return string(p.b[start : p.i-1]), true
			}
			var s string
			if json.Unmarshal(p.b[start-1:p.i], &s) != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			esc = true
			p.i += 2
		case c < 0x20:
			return "", false
		default:
			p.i++
		}
	}
	return "", false
}

// number reads a number by the JSON grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and returns its text
// (a view of the input).
func (p *fastJSON) number() (string, bool) {
	b, start := p.b, p.i
	i := p.i
	digits := func() int {
		k := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i - k
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if i >= len(b) || b[i] < '1' || b[i] > '9' || digits() == 0 {
		return "", false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return "", false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return "", false
		}
	}
	p.i = i
	return unsafe.String(&b[start], i-start), true
}

// float reads a number that must be a finite float64 (jsonFloat's rule).
func (p *fastJSON) float() (float64, bool) {
	tok, ok := p.number()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(tok, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// matrix reads an array of equally long arrays of numbers, appending the
// numbers to out, and returns its rows and columns (0, 0 for []).
func (p *fastJSON) matrix(out []float64) ([]float64, int, int, bool) {
	if !p.byte('[') {
		return out, 0, 0, false
	}
	p.space()
	if p.byte(']') {
		return out, 0, 0, true
	}
	rows, cols := 0, -1
	for {
		p.space()
		if !p.byte('[') {
			return out, 0, 0, false
		}
		k := 0
		p.space()
		if !p.byte(']') {
			for {
				p.space()
				v, ok := p.float()
				if !ok {
					return out, 0, 0, false
				}
				out = append(out, v)
				k++
				p.space()
				if p.byte(']') {
					break
				}
				if !p.byte(',') {
					return out, 0, 0, false
				}
			}
		}
		if cols >= 0 && k != cols {
			return out, 0, 0, false
		}
		cols = k
		rows++
		p.space()
		if p.byte(']') {
			return out, rows, cols, true
		}
		if !p.byte(',') {
			return out, 0, 0, false
		}
	}
}
