// Package datasets turns files (and the built-in data in assets) into
// validated Datasets: distance matrices, feature tables, relation lists and
// elliptical embeddings. Every error names the file, line and problem.
package datasets

import "burescope/engine"

// Kind says what a Dataset holds.
type Kind string

// The kinds of input Burescope understands.
const (
	KindDistances Kind = "distances" // a square distance matrix
	KindFeatures  Kind = "features"  // a table of numeric features (Euclidean distances)
	KindRelations Kind = "relations" // (child, ancestor) pairs (shortest-path distances)
	KindEmbedding Kind = "embedding" // trained elliptical embeddings
)

// Dataset is a loaded, validated input.
type Dataset struct {
	Name    string   // what the user named: a path or builtin:NAME
	Kind    Kind     // what the file held
	Labels  []string // n unique item labels
	Classes []string // n class names for colouring, or nil
	// ClassColumn names the column Classes came from ("" if none).
	ClassColumn string
	// Dist is the packed upper triangle (engine.PairIndex) of the n x n
	// distance matrix the MDS fits; nil for a pure embedding.
	Dist []float64
	// Features is the n x p feature table (row-major) for KindFeatures.
	Features     []float64
	FeatureNames []string
	// Embedding is set for KindEmbedding (and may seed a fit).
	Embedding *engine.Embedding
	// Source is a one-line attribution (built-ins) or the file path.
	Source string
}

// Len returns the number of items n.
func (d *Dataset) Len() int { return len(d.Labels) }
