// Package view turns what the app shows into pictures, free of Fyne: the
// frame Loop (one goroutine rasterises with render.Live whenever the
// Input's Key or the view changed, and hands at most one finished Frame
// to the UI goroutine), the overlays drawn over a fit (the point-MDS
// baseline, a geodesic measure, the class and selection Barycenters), the
// tooltip text of an item, and the
// EmbView of an embedding that is not the fit (a loaded or trained one,
// projected on a plane).
package view
