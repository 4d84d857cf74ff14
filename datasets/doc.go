// Package datasets turns files, and the built-in data in package assets,
// into validated Datasets: distance matrices, feature tables (including
// TensorFlow Embedding Projector vector/metadata pairs), relation lists and
// elliptical embeddings. Every error names the file and, where it can, the
// line, the column and the problem, in the form
//
//	pisa.csv:12: column 4 ("math"): "abc" is not a number
//
// (an *Error). No input makes the package panic, hang or allocate more
// than the input justifies: files are limited to MaxFileSize bytes, n to
// MaxItems items and embedding dimensions to MaxDim.
//
// # Names
//
// Load and LoadEmbedding take a file path or builtin:NAME, where
// NAME is one of Builtins(): pisa2015 (the default, DefaultBuiltin), iris,
// wine and mammals. The built-ins are embedded in the binary; their sources
// and licences are in assets/ATTRIBUTION.md and in BuiltinInfo.Source.
//
// # Kinds and detection
//
// Options.Kind forces a kind; otherwise the loader detects it, in this order:
//   - a name ending in .json, or contents starting with '{': an embedding;
//   - a table of exactly two columns, never holding a number: relations;
//   - a table whose numbers, after an optional header row and label
//     column, form a square n x n block (n >= 2) with a zero diagonal:
//     distances;
//   - anything else: a feature table.
//
// Relations with numeric node ids or extra columns (weights) need
// Kind = KindRelations.
//
// # Text tables
//
// Tables are UTF-8 (a byte-order mark is skipped; UTF-16 and binary files
// are refused), with LF, CRLF or CR line ends. The delimiter is whichever
// of tab, comma and semicolon occurs most often on the first non-blank line
// (ties prefer tab, then comma). Comma and semicolon files follow RFC 4180
// quoting (leniently: a stray quote inside a field is kept); tab files are
// split on every tab, and a cell wholly enclosed in double quotes is
// unquoted. Cells are trimmed of surrounding white space and blank lines
// are skipped. Numbers are Go/C floating-point syntax (1, -2.5, 3e-4); NaN,
// Inf and values beyond float64 are rejected as not finite, empty cells as
// missing values. Line numbers in errors are those of the file.
//
// # Distance matrices
//
// A square n x n matrix of numbers, n >= 2, with optionally a header row of
// n labels (with or without a top-left corner cell; an empty corner means
// there is a label column) and/or a first column of n labels. A header row or label column is recognised when most
// of its cells are text (non-empty, not numbers) or the top-left cell is
// empty; numeric labels are recognised by the counts (n+1 rows of n cells,
// or n rows of n+1 cells) when that reading puts zeros on the diagonal.
// With both, row i's label must equal column i's. Without labels,
// items are called "1" ... "n". Labels must be non-empty and unique.
//
// Every entry must be finite and >= 0; the diagonal must be 0 within
// DiagonalTol times the largest entry; D_ij and D_ji must agree within
// SymmetryTol (relative) and their mean is stored. Options.Symmetrize
// averages D and D^T whatever their difference. Each violation names the
// line, column and value. Dist holds the packed upper triangle
// (engine.PairIndex); the diagonal is not stored.
//
// # Feature tables
//
// A CSV/TSV with one row per item. The first row is a header unless it is
// made of numbers where the numeric columns are (so a table without a
// header, such as Embedding Projector vectors, also loads, with features
// named x1, x2, ...). A column is numeric when most of its non-empty cells
// are numbers; any other cell in it is then an error ("abc" is not a
// number). Columns whose cells are all empty are ignored.
//
// Labels: Options.LabelColumn (a header name or 1-based number), else the
// first text column whose values are all present and distinct (PISA:
// country), else the row numbers "1" ... "n". A named label column must
// have unique, non-empty values.
//
// Classes (for colouring): Options.ClassColumn, else the first other text
// column with at least 2 and at most n/2 distinct values (iris, wine:
// class). A column with as many distinct values as rows, like PISA's
// country code, is an identifier, not a class; such text columns are
// listed in Dataset.IgnoredColumns and are not features either.
//
// Every other column is a feature; Dist holds Euclidean distances between
// rows, computed with scaling so that large values do not overflow.
//
// Standardisation. Options.Standardize = &true replaces each feature x by
// (x - mean) / sd (sample standard deviation, n-1; a constant column
// becomes 0); &false keeps raw values. The default (nil) standardises only
// when the largest column standard deviation exceeds StandardizeRatio (10)
// times the smallest non-zero one. Columns measured in one unit with
// comparable spreads keep their units, so distances read in those units:
// PISA's nine scores are all points on the same PISA scale (sd 18 to 30),
// and iris's four lengths are all centimetres (ratio about 4); neither is
// standardised. Columns in different units have spreads differing by orders
// of magnitude, and unstandardised distances would be the distance in the
// largest-unit column alone: wine's Proline (sd about 315) against Hue (sd
// about 0.23), so wine is standardised. Dataset.Standardized,
// FeatureMeans and FeatureSDs record what was done; Features keeps the
// values as read.
//
// # Embedding Projector pairs
//
// Options.Metadata names the metadata TSV; the file given to Load is the
// vectors TSV: one vector per line, tab-separated numbers, no header. A
// metadata file with one column has no header and gives one label per line;
// with more columns its first row is a header and the label and class
// columns are chosen as for feature tables (LabelColumn and ClassColumn
// refer to metadata columns). There must be one metadata row per vector.
//
// # Relations
//
// (child, ancestor) pairs, one per row, in the first two columns of a
// CSV/TSV (further columns are ignored), like assets/mammals_closure.tsv.
// The first row is a header if both cells are made of usual column words
// (child, ancestor, parent, id1, from_node, source, target, ...) and
// neither occurs anywhere else in the file; otherwise it is data. Self-pairs and repeated pairs are
// allowed and skipped in the graph. Items are numbered in order of first
// appearance.
//
// The pairs may be a transitive closure (like mammals) or plain edges: the
// directed graph child -> ancestor is reduced to its transitive reduction
// (the Hasse diagram: an edge u -> v is kept only if v cannot be reached
// from u through another node), and Dist holds shortest-path lengths (edge
// counts) in that graph taken as undirected, by breadth-first search from
// every node. A cycle (an item its own ancestor) is an error naming a pair
// on it. A disconnected graph is an error naming two items with no path
// between them: shortest-path distance is undefined there, and guessing a
// value would distort the MDS; split the file into its components. The
// raw pairs are kept in Dataset.Relations (for training embeddings from
// relations) and the reduction in Dataset.Edges.
//
// # Embedding files
//
// An elliptical embedding is stored as one JSON object:
//
//	{
//	  "format": "burescope-embedding/1",
//	  "family": "uniform" | "gaussian" | "custom",
//	  "tau": number,
//	  "dim": d,
//	  "labels": [n strings],
//	  "means": [n arrays of d numbers],
//	  "covariances": [n arrays of d arrays of d numbers]
//	}
//
// "format" must be exactly "burescope-embedding/1". "dim" is 1 to MaxDim.
// "tau" is the family constant (covariance = tau * scale): required for
// "custom" (tau > 0); optional for "gaussian" (1) and "uniform"
// (1/(d+2)), where it must match. "labels" are non-empty and unique; item
// i is labels[i], means[i], covariances[i]. "covariances" are the
// covariance matrices of the measures, that is tau times the scale matrix
// (for the uniform family the scale is the ellipsoid {c + C^(1/2) x :
// |x| <= 1}, so the covariance is C/(d+2)). Instead of "covariances" a file
// may give "factors": n arrays of d arrays of k numbers (k may differ
// between items, k = 0 is a Dirac), with covariance_i = F_i F_i^T. Each
// covariance must be finite, symmetric and positive semi-definite within
// CovarianceTol (relative); small rounding violations are repaired
// (symmetrised, negative eigenvalues set to 0). An optional "classes"
// gives one class name per label (the colour groups of the fitted
// dataset: the app's export and fit --out write it, render and the app
// colour by it). Other fields are ignored,
// so later versions may add some. Errors name the line where the item
// starts, the field, the item's index and its label, e.g.
//
//	emb.json:57: covariances[3] ("Korea"): not positive semi-definite: eigenvalue -0.5 < 0
//
// LoadEmbedding returns an *engine.Embedding whose Scales are covariance /
// tau. WriteEmbeddingJSON and SaveEmbedding write covariances with full
// float64 precision (shortest round-trip form), one item per line;
// SaveEmbedding writes a temporary file in the same directory and renames
// it, so a file is never half-written.
package datasets
