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
	// Features is the n x p feature table (row-major) for KindFeatures, as
	// read from the file (before any standardisation).
	Features []float64
	// FeatureNames are the p feature column names (x1, x2, ... without a
	// header).
	FeatureNames []string
	// Standardized says that Dist was computed on standardised features
	// (x - FeatureMeans[k]) / FeatureSDs[k] (sample standard deviation;
	// constant columns become 0). FeatureMeans and FeatureSDs are set only
	// then.
	Standardized bool
	FeatureMeans []float64 // p column means, when Standardized
	FeatureSDs   []float64 // p column sample standard deviations, when Standardized
	// IgnoredColumns are text columns of a feature table that were used
	// neither as labels nor as classes (e.g. PISA's country code).
	IgnoredColumns []string
	// TextColumns are the text columns of a feature table or a Projector
	// metadata file other than the labels (the class column included),
	// each with its n values, in file order: what a picture can be
	// coloured or labelled by besides the class.
	TextColumns []TextColumn
	// Relations are the (child, ancestor) pairs of a KindRelations file as
	// indices into Labels, in file order (self-pairs included): the raw
	// supervision for training embeddings from relations.
	Relations [][2]int
	// Edges are the (child, parent) edges of the transitive reduction of
	// Relations (the Hasse diagram); Dist holds shortest-path lengths in
	// this graph taken as undirected.
	Edges [][2]int
	// Embedding is set for KindEmbedding (and may seed a fit).
	Embedding *engine.Embedding
	// Source is a one-line attribution (built-ins) or the file path.
	Source string
	// Asymmetry is the largest difference Options.Symmetrize averaged
	// away in a distance matrix (zero when there was none).
	Asymmetry Asymmetry
	// Detected says, when Load chose the kind itself, what it chose and
	// why (one line, for a notice); "" when the kind was given.
	Detected string
}

// TextColumn is one text column of a table: its header name and n values.
type TextColumn struct {
	Name   string
	Values []string
}

// Len returns the number of items n.
func (d *Dataset) Len() int { return len(d.Labels) }
