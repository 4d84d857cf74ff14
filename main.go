// Command burescope draws data as ellipses: elliptical MDS in the
// 2-Wasserstein space of elliptical distributions (Muzellec & Cuturi,
// NeurIPS 2018).
//
// With no arguments it opens the desktop app on the built-in PISA 2015
// dataset; with a command (fit, bench, render, ...) it runs headless.
package main

import (
	"os"

	"burescope/ui/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
