package ui

import (
	"fmt"

	"burescope/datasets"
	"burescope/engine/emds"
)

// nothingToExport reports whether there is neither an MDS fit nor an
// explored embedding to export.
func (a *App) nothingToExport() bool {
	return a.sess.Snapshot() == nil && a.shown.Load() == nil
}

// embeddingExportJob captures an export of the embedding on the canvas in the
// embedding and relations modes (nil, nil in MDS mode: the app exports
// the fit). The embedding exports are the full-dimensional embedding;
// the figure is the picture on screen.
func (a *App) embeddingExportJob(kind exportKind) (*exportJob, error) {
	v := a.shown.Load()
	if v == nil {
		return nil, nil
	}
	if kind == exportStressCSV {
		return nil, fmt.Errorf("no stress curve: the canvas shows a trained embedding, not an MDS fit")
	}
	e := v.Emb
	snap := &emds.Snapshot{N: e.Len(), Dim: e.Dim, Family: e.Family, Means: e.Means, Scales: e.Scales, Iter: v.Epoch}
	ds := &datasets.Dataset{Name: v.Name, Kind: datasets.KindEmbedding, Labels: e.Labels, Embedding: e}
	if len(v.DS.Classes) == e.Len() {
		ds.Classes = v.DS.Classes
	}
	j := &exportJob{kind: kind, snap: snap, ds: ds}
	if kind == exportFigure {
		j.scene, j.style = a.exportScene()
		if j.scene == nil {
			return nil, errNothing
		}
	}
	return j, nil
}

// exportDataset is the dataset whose name the export dialogs suggest:
// the explored or trained embedding's, else the session's.
func (a *App) exportDataset() *datasets.Dataset {
	if v := a.shown.Load(); v != nil {
		return &datasets.Dataset{Name: v.Name, Labels: v.Emb.Labels}
	}
	return a.sess.Dataset()
}
