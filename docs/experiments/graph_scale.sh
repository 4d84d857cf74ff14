#!/usr/bin/env bash
# Sampled-pair elliptical MDS of a large relation graph (docs/scale.md,
# "Relation graphs"): a random recursive tree of N nodes (node i's parent
# drawn uniformly among nodes 0..i-1; seed fixed by awk's srand) written as
# a child/ancestor file, fitted by `burescope fit` (auto picks the sampled
# path above engine.SampledAutoMin) under /usr/bin/time -v. Run by hand:
#   bash docs/experiments/graph_scale.sh [OUTDIR] [N]
# The machine these figures came from was shared: read CPU next to wall.
set -euo pipefail
out=${1:-/tmp/burescope-graph}
n=${2:-100000}
mkdir -p "$out"
bin="$out/burescope"
go build -o "$bin" .
awk -v n="$n" 'BEGIN { srand(17); print "child\tancestor";
  for (i = 1; i < n; i++) printf "n%d\tn%d\n", i, int(rand() * i) }' > "$out/tree.tsv"
nice -n 10 /usr/bin/time -v "$bin" fit "$out/tree.tsv" --kind relations \
  --out "$out/tree-emb.json" > "$out/fit-tree.json" 2> "$out/fit-tree.log"
cat "$out/fit-tree.json"
grep -E "items|Elapsed|User time|System time|Maximum resident" "$out/fit-tree.log"
