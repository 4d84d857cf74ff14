// Package assets holds Burescope's built-in data files, embedded in the
// binary with go:embed. The datasets package turns them into Datasets;
// ATTRIBUTION.md gives the source and licence of each file.
package assets

import (
	"embed"
	"io/fs"
)

// The data files, named one by one so that files added to this folder for
// other purposes are not embedded by accident.
//
//go:embed pisa2015_oecd.csv iris.csv wine.csv mammals_closure.tsv ATTRIBUTION.md
var files embed.FS

// File names inside FS.
const (
	PISA2015    = "pisa2015_oecd.csv"   // PISA 2015 mean scores of 35 OECD countries
	Iris        = "iris.csv"            // Fisher's iris flowers
	Wine        = "wine.csv"            // UCI wine recognition data
	Mammals     = "mammals_closure.tsv" // WordNet 3.0 mammal hypernym closure
	Attribution = "ATTRIBUTION.md"      // provenance and licences of the files above
)

// FS returns the embedded data files (read-only).
func FS() fs.FS { return files }
