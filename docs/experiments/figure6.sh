#!/usr/bin/env bash
# Figure 6 of Muzellec & Cuturi (2018): reconstruction mean rank and MAP of
# elliptical embeddings trained on the WordNet noun closure (82,115 nouns,
# 743,241 pairs), per dimension, under both protocols (docs/hypernymy.md),
# plus the mammal closure beside gensim's PoincareModel. Run by hand, not in
# CI (hours at d >= 5 on a 2-core machine):
#
#   apt-get install -y wordnet-base python3-gensim
#   go build -o burescope .
#   bash docs/experiments/figure6.sh OUTDIR [DIMS] [NOUN_EPOCHS]
#
# DIMS defaults to "2 3 4 5 10 20", NOUN_EPOCHS to 50 (the trainer's
# default); the mammal runs use the defaults (Adam, 50 epochs). Every run
# appends its JSON line to OUTDIR/results.jsonl (with "set" naming the
# experiment); the figure is drawn by
#
#   go run docs/experiments/figure6/plot.go OUTDIR/results.jsonl OUTDIR/figure6.png
set -euo pipefail
out=${1:?usage: figure6.sh OUTDIR [DIMS] [NOUN_EPOCHS]}
dims=${2:-"2 3 4 5 10 20"}
epochs=${3:-50}
bin=${BURESCOPE:-./burescope}
wn=${WORDNET:-/usr/share/wordnet}
mkdir -p "$out"
res="$out/results.jsonl"

tag() { # tag SET: prefix the last stdout line with "set"
  tail -n 1 | sed "s/^{/{\"set\":\"$1\",/" >> "$res"
}

# Mammals: the default run, both training protocols.
for d in $dims; do
  for proto in directed undirected; do
    nice -n 10 "$bin" train-relations builtin:mammals --dim "$d" --protocol "$proto" --workers 2 \
      --out "$out/mammals_${proto}_d$d.json" 2> "$out/mammals_${proto}_d$d.log" | tag "mammals"
  done
done

# gensim's Poincare embeddings on the same closure, scored by both protocols.
"$bin" relations builtin:mammals --out "$out/mammals.tsv" > /dev/null
nice -n 10 /usr/bin/python3 "$(dirname "$0")/poincare_mammals.py" "$out/mammals.tsv" --dims $dims \
  --epochs 50 --seeds 1 | sed 's/^{/{"set":"poincare-mammals",/' >> "$res"

# All nouns, both training protocols; evaluation after the last epoch only.
for d in $dims; do
  for proto in directed undirected; do
    nice -n 10 "$bin" train-relations "wordnet:$wn" --dim "$d" --protocol "$proto" --epochs "$epochs" \
      --eval-every 0 --workers 2 --progress --out "$out/nouns_${proto}_d$d.json" \
      2> "$out/nouns_${proto}_d$d.log" | tag "nouns"
  done
done
