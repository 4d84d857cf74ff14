#!/bin/bash
# The proxy table of docs/words.md at train-words' defaults: ours (full
# covariance, d = 12, every setting at its default) beside gensim's skipgram
# at gensim's own defaults and at our settings (fixed window 5, 5 negatives,
# subsampling 1e-3, 5 epochs; d = 90, the free parameters of one of our
# measures), on one corpus and its similarity pair file.
# usage: bash docs/experiments/words_proxies_defaults.sh WORKDIR NAME CORPUS.txt PAIRS.tsv
#   (Brown and Austen: corpora as in words.sh, pairs docs/experiments/data/*-wup-proxy.tsv;
#    planted: words_planted.py). Needs python3-gensim.
# Writes WORKDIR/NAME_*.json and prints one JSON line per model, set and measure.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
W=$1
N=$2
C=$3
P=$4
mkdir -p "$W"
(cd "$REPO" && go build -o "$W/burescope" .)
B="nice -n 5 $W/burescope"
PY="nice -n 5 /usr/bin/python3"
$B train-words "$C" --threads 2 --progress --out "$W/${N}_ours.npz" > "$W/${N}_ours.json" 2> "$W/${N}_ours.log"
for s in context input; do
  for by in mixture cosine dot w2; do
    r=$($B eval-similarity "$W/${N}_ours.npz" --pairs "$P" --set $s --by $by 2>/dev/null | tail -n1)
    echo "{\"corpus\":\"$N\",\"model\":\"ours-defaults\",\"set\":\"$s\",\"by\":\"$by\",\"result\":$r}"
  done
done
cd "$REPO/docs/experiments"
$PY words_gensim.py "$C" --sim "$P" --gensim-defaults > "$W/${N}_gensim_defaults.json"
$PY words_gensim.py "$C" --sim "$P" --dim 90 --window 5 --negatives 5 --subsample 1e-3 --epochs 5 > "$W/${N}_gensim_same.json"
for g in gensim_defaults gensim_same; do
  echo "{\"corpus\":\"$N\",\"model\":\"$g\",\"result\":$(cat "$W/${N}_$g.json")}"
done
