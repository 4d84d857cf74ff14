#!/usr/bin/env bash
# Sampled-pair vs exact elliptical MDS (docs/scale.md): n = 2000 and 5000
# (both paths, stress-1 of both evaluated exactly on all pairs), then a
# 100,000 x 50 table through `burescope fit` (auto picks the sampled path)
# under /usr/bin/time -v (wall, CPU, peak memory). Run by hand, not in CI:
#   bash docs/experiments/scale.sh [OUTDIR]
# The machine these figures came from was shared: run with nice and read
# the CPU times next to the wall times.
set -euo pipefail
out=${1:-/tmp/burescope-scale}
mkdir -p "$out"
bin="$out/burescope"
go build -o "$bin" .
for n in 2000 5000; do
  nice -n 10 "$bin" bench-pairs --n "$n" --features 50 --clusters 10 \
    2> "$out/bench-$n.log" | tail -1 > "$out/bench-$n.json"
  cat "$out/bench-$n.json"
done
nice -n 10 "$bin" bench-pairs --n 100000 --write-table "$out/t100k.csv"
nice -n 10 /usr/bin/time -v "$bin" fit "$out/t100k.csv" --out "$out/e100k.json" \
  --figure "$out/e100k.png" > "$out/fit-100k.json" 2> "$out/fit-100k.log"
cat "$out/fit-100k.json"
grep -E "Elapsed|User time|System time|Maximum resident" "$out/fit-100k.log"
# Drawing and hit-testing 100,000 items, and the neighbour search.
nice -n 10 go test ./render -run XXX -bench 100k -benchtime 10x | tee "$out/render-100k.txt"
nice -n 10 go test ./engine/emds -run XXX -bench FeatureNeighbors100k -benchtime 1x | tee "$out/knn-100k.txt"
