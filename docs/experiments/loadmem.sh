#!/usr/bin/env bash
# Peak memory (max RSS, /usr/bin/time -v) of loading a distance CSV with
# datasets.Load, for the figures in docs/limits.md. Run by hand, not CI:
#   bash docs/experiments/loadmem.sh [REPO_DIR] [N...]
# REPO_DIR defaults to this checkout; give a checkout of an older commit to
# measure "before". Generates N x N CSVs (default 5000 and 16000) in /tmp.
set -euo pipefail
repo=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
shift || true
sizes=("${@:-5000 16000}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/main.go" <<'GO'
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"

	"burescope/datasets"
)

func main() {
	if os.Args[1] == "gen" {
		n, _ := strconv.Atoi(os.Args[2])
		w := bufio.NewWriterSize(os.Stdout, 1<<20)
		defer w.Flush()
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if j > 0 {
					w.WriteByte(',')
				}
				a, b := min(i, j), max(i, j)
				if a == b {
					w.WriteString("0")
				} else if n <= 8000 {
					fmt.Fprintf(w, "%.6f", 1+float64((a*7919+b*104729)%1000000)/1e6)
				} else {
					w.WriteString(strconv.Itoa(1 + (a*7919+b*104729)%9))
				}
			}
			w.WriteByte('\n')
		}
		return
	}
	ds, err := datasets.Load(os.Args[1], datasets.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ds.Kind, ds.Len())
}
GO
printf 'module loadmem\ngo 1.26\nrequire burescope v0.0.0\nreplace burescope => %s\n' "$repo" > "$work/go.mod"
cp "$repo/go.sum" "$work/"
(cd "$work" && GOFLAGS=-mod=mod go build -o loadmem .)
for n in ${sizes[@]}; do
	csv=/tmp/burescope-loadmem-$n.csv
	[ -s "$csv" ] || "$work/loadmem" gen "$n" > "$csv"
	/usr/bin/time -v nice -n 10 "$work/loadmem" "$csv" 2> "$work/time.txt"
	echo "n=$n file=$(stat -c %s "$csv") bytes triangle=$((n*(n-1)/2*8)) bytes"
	grep -E "Maximum resident|Elapsed" "$work/time.txt"
done
