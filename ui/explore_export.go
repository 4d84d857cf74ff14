package ui

import (
	"fmt"

	"burescope/datasets"
	"burescope/engine"
)

// itemLabels is the label list the search box looks in: the labels of
// what the canvas shows.
func (a *App) itemLabels() []string { return a.explore.labels() }

// nothingToExport reports whether there is neither an MDS fit nor an
// explored embedding to export.
func (a *App) nothingToExport() bool {
	return a.sess.Snapshot() == nil && a.explore.view.Load() == nil
}

// exportJob captures an export of the embedding on the canvas in the
// embedding and relations modes (nil, nil in MDS mode: the app exports
// the fit). The embedding exports are the full-dimensional embedding;
// the figure is the picture on screen.
func (x *explorer) exportJob(kind exportKind) (*exportJob, error) {
	v := x.view.Load()
	if v == nil {
		return nil, nil
	}
	if kind == exportStressCSV {
		return nil, fmt.Errorf("no stress curve: the canvas shows a trained embedding, not an MDS fit")
	}
	e := v.emb
	snap := &engine.Snapshot{N: e.Len(), Dim: e.Dim, Family: e.Family, Means: e.Means, Scales: e.Scales, Iter: v.epoch}
	ds := &datasets.Dataset{Name: v.name, Kind: datasets.KindEmbedding, Labels: e.Labels, Embedding: e}
	if len(v.ds.Classes) == e.Len() {
		ds.Classes = v.ds.Classes
	}
	j := &exportJob{kind: kind, snap: snap, ds: ds}
	if kind == exportFigure {
		j.scene, j.style = x.a.exportScene()
		if j.scene == nil {
			return nil, errNothing
		}
	}
	return j, nil
}

// exportDataset is the dataset whose name the export dialogs suggest:
// the explored or trained embedding's, else the session's.
func (x *explorer) exportDataset() *datasets.Dataset {
	if v := x.view.Load(); v != nil {
		return &datasets.Dataset{Name: v.name, Labels: v.emb.Labels}
	}
	return x.a.sess.Dataset()
}
