package datasets

import (
	"fmt"
	"io/fs"
	"strings"

	"burescope/assets"
)

// BuiltinPrefix marks a built-in dataset wherever a file name is accepted:
// builtin:NAME.
const BuiltinPrefix = "builtin:"

// DefaultBuiltin is the dataset the app opens with.
const DefaultBuiltin = "pisa2015"

// BuiltinInfo describes one built-in dataset.
type BuiltinInfo struct {
	Name        string // as in builtin:NAME
	N           int    // number of items
	Kind        Kind   // what the file holds
	Source      string // one-line attribution
	Description string // what an item is
}

// builtin is a BuiltinInfo with the embedded file behind it.
type builtin struct {
	info BuiltinInfo
	file string // name in assets.FS()
}

// builtins lists the embedded datasets; counts and attributions are those
// of assets/ATTRIBUTION.md (a test checks N against Load).
var builtins = []builtin{
	{BuiltinInfo{"pisa2015", 35, KindFeatures,
		"The World Bank, EdStats series LO.PISA.* (CC BY 4.0); underlying data OECD PISA 2015",
		"35 OECD countries, 9 PISA 2015 mean scores (math, reading, science; all, female, male)"}, assets.PISA2015},
	{BuiltinInfo{"iris", 150, KindFeatures,
		"R.A. Fisher (1936), Annals of Eugenics 7(2); UCI Machine Learning Repository, via scikit-learn",
		"150 iris flowers, 4 measurements in cm, 3 species"}, assets.Iris},
	{BuiltinInfo{"wine", 178, KindFeatures,
		"UCI Machine Learning Repository, Wine (Forina et al., PARVUS, Genoa), via scikit-learn",
		"178 wines, 13 chemical measurements in mixed units, 3 cultivars"}, assets.Wine},
	{BuiltinInfo{"mammals", 1182, KindRelations,
		"WordNet 3.0, Copyright 2006 Princeton University (WordNet licence)",
		"1,182 WordNet noun synsets under mammal.n.01; shortest paths in the hypernym tree"}, assets.Mammals},
}

// Builtins returns the built-in datasets, the default first.
func Builtins() []BuiltinInfo {
	out := make([]BuiltinInfo, len(builtins))
	for i, b := range builtins {
		out[i] = b.info
	}
	return out
}

// builtinByName finds a built-in dataset.
func builtinByName(name string) (builtin, bool) {
	for _, b := range builtins {
		if b.info.Name == name {
			return b, true
		}
	}
	return builtin{}, false
}

// builtinNames lists the built-in names for error messages.
func builtinNames() string {
	names := make([]string, len(builtins))
	for i, b := range builtins {
		names[i] = b.info.Name
	}
	return strings.Join(names, ", ")
}

// read returns the embedded file's bytes.
func (b builtin) read() ([]byte, error) {
	data, err := fs.ReadFile(assets.FS(), b.file)
	if err != nil {
		return nil, fmt.Errorf("%s%s: %w", BuiltinPrefix, b.info.Name, err)
	}
	return data, nil
}
