package export

import (
	"fmt"

	"burescope/datasets"
	"burescope/engine/emds"
)

// nothing reports whether there is neither an MDS fit nor an explored
// embedding to export.
func (e *Exporter) nothing() bool {
	return e.h.Snapshot() == nil && e.h.Shown() == nil
}

// embeddingJob captures an export of the embedding on the canvas in the
// embedding and relations modes (nil, nil in MDS mode: the app exports
// the fit). The embedding exports are the full-dimensional embedding;
// the figure is the picture on screen.
func (e *Exporter) embeddingJob(kind Kind) (*Job, error) {
	v := e.h.Shown()
	if v == nil {
		return nil, nil
	}
	if kind == StressCSV {
		return nil, fmt.Errorf("no stress curve: the canvas shows a trained embedding, not an MDS fit")
	}
	emb := v.Emb
	snap := &emds.Snapshot{N: emb.Len(), Dim: emb.Dim, Family: emb.Family, Means: emb.Means, Scales: emb.Scales, Iter: v.Epoch}
	ds := &datasets.Dataset{Name: v.Name, Kind: datasets.KindEmbedding, Labels: emb.Labels, Embedding: emb}
	if len(v.DS.Classes) == emb.Len() {
		ds.Classes = v.DS.Classes
	}
	j := &Job{kind: kind, snap: snap, ds: ds}
	if kind == Figure {
		j.Scene, j.Style = e.Scene()
		if j.Scene == nil {
			return nil, ErrNothing
		}
	}
	return j, nil
}

// dataset is the dataset whose name the export dialogs suggest: the
// explored or trained embedding's, else the session's.
func (e *Exporter) dataset() *datasets.Dataset {
	if v := e.h.Shown(); v != nil {
		return &datasets.Dataset{Name: v.Name, Labels: v.Emb.Labels}
	}
	return e.h.Dataset()
}
