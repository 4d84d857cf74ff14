#!/usr/bin/env bash
# Figure 6 at full length (issue 23, point 4): 50 epochs of all WordNet
# nouns per dimension, directed training with the defaults (Adam 0.03,
# 50 negatives, batches of 1,000, seed 1, 2 workers), then exact ranks of
# every row under both ranking protocols. One dimension at a time, each
# under /usr/bin/time -v (wall, CPU, peak memory in the .log files).
# Hours on a 2-core machine; not CI. Needs wordnet-base. Usage, from the
# repository root after `go build -o burescope .`:
#
#   bash docs/experiments/figure6_50.sh OUTDIR "3 4 5 10"
#
# NAME.train.json is the training command's last JSON line (its
# seconds_per_epoch included), NAME.eval.PROTOCOL.json the ranking's.
set -u
out=${1:?usage: figure6_50.sh OUTDIR DIMS [EPOCHS]}
dims=${2:?usage: figure6_50.sh OUTDIR DIMS [EPOCHS]}
epochs=${3:-50}
bin=${BURESCOPE:-$PWD/burescope}
wn=wordnet:${WORDNET:-/usr/share/wordnet}
mkdir -p "$out"
cd "$out"
for d in $dims; do
  name=nouns50_d$d
  /usr/bin/time -v nice -n ${NICE:-5} "$bin" train-relations "$wn" --dim "$d" --epochs "$epochs" \
    --no-eval --workers 2 --progress --out "$name.json" > "$name.train.json" 2> "$name.train.log"
  for p in directed undirected; do
    /usr/bin/time -v nice -n ${NICE:-5} "$bin" eval-relations "$name.json" "$wn" --protocol "$p" \
      --workers 2 > "$name.eval.$p.json" 2> "$name.eval.$p.log"
  done
done
