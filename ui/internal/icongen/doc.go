// Package icongen draws Burescope's application icon (assets/icon.png):
// a few overlapping translucent ellipses on a rounded dark tile, the
// picture elliptical MDS makes. The icon is generated, not hand drawn, so
// that it can be regenerated at any size:
//
//	go test ./ui/internal/icongen -run TestIcon -regen
//
// rewrites assets/icon.png; without -regen the test checks that the file
// on disk is exactly what Draw produces.
package icongen
