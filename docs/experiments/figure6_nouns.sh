#!/usr/bin/env bash
# The noun runs of docs/hypernymy.md, "Figure 6: all WordNet nouns", as
# they were run (one after the other, nice 19, 2 workers, defaults: Adam
# 0.03, 50 negatives, batches of 1,000, seed 1): train with --no-eval,
# then rank the saved embedding under both protocols with eval-relations
# (exact ranks of every row, or of every K-th row where stated). Hours on
# a 2-core machine; not CI. Needs wordnet-base. Usage, from the
# repository root after `go build -o burescope .`:
#
#   bash docs/experiments/figure6_nouns.sh OUTDIR
#   /usr/bin/python3 docs/experiments/figure6/nouns_jsonl.py OUTDIR > docs/experiments/figure6/nouns.jsonl
#   go run docs/experiments/figure6/plot.go docs/experiments/figure6/nouns.jsonl docs/hypernymy_nouns
#
# Every command runs under /usr/bin/time -v (wall, CPU, peak memory in
# the .log files); the JSON lines are NAME.train.json and
# NAME.eval.PROTOCOL.json.
set -u
out=${1:?usage: figure6_nouns.sh OUTDIR}
bin=${BURESCOPE:-$PWD/burescope}
wn=wordnet:${WORDNET:-/usr/share/wordnet}
mkdir -p "$out"
cd "$out"
run() { # NAME DIM EPOCHS TRAIN_PROTOCOL EVERY RANK_PROTOCOLS [TRAIN_FLAGS...]
  local name=$1 d=$2 ep=$3 proto=$4 every=$5 ranks=$6
  shift 6
  /usr/bin/time -v nice -n 19 "$bin" train-relations "$wn" --dim "$d" --epochs "$ep" --protocol "$proto" \
    --no-eval --workers 2 --out "$name.json" "$@" > "$name.train.json" 2> "$name.train.log"
  for p in $ranks; do
    /usr/bin/time -v nice -n 19 "$bin" eval-relations "$name.json" "$wn" --protocol "$p" --every "$every" \
      --workers 2 > "$name.eval.$p.json" 2> "$name.eval.$p.log"
  done
}
run nouns_d3 3 10 directed 1 "directed undirected"
run nouns_d4 4 10 directed 1 "directed undirected"
run nouns_undir_d2 2 10 undirected 1 "directed undirected" --no-self-pairs # the authors' sampler as published
run nouns_undirself_d2 2 10 undirected 1 "directed undirected"                 # with the self pairs (the default)
run nouns_d10 10 2 directed 25 "directed undirected"
run nouns_d20 20 1 directed 100 "directed"
