#!/bin/bash
# The measurements behind train-words' defaults (docs/words.md, "Defaults"):
# on a planted-similarity corpus (words_planted.py), train with one setting
# changed at a time from the defaults, one epoch per call (--resume), and
# evaluate the Spearman correlation with the planted similarities after
# every epoch (context and input sets, mixture cosine).
# usage: bash docs/experiments/words_defaults.sh WORKDIR CORPUS_PREFIX [NAME:FLAGS ...]
#   CORPUS_PREFIX.txt and CORPUS_PREFIX-sim.tsv must exist (words_planted.py);
#   each NAME:FLAGS is one run, e.g. "lr0.3:--lr 0.3"; EPOCHS (default 5).
# Prints one line per run and epoch: name epoch context input loss seconds.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
W=$1
C=$2
shift 2
EPOCHS=${EPOCHS:-5}
mkdir -p "$W"
(cd "$REPO" && go build -o "$W/burescope" .)
B="nice -n 5 $W/burescope"
for spec in "$@"; do
  name=${spec%%:*}
  flags=${spec#*:}
  out="$W/$(basename "$C")_$name.npz"
  rm -f "$out"
  for e in $(seq 1 "$EPOCHS"); do
    if [ "$e" = 1 ]; then
      # shellcheck disable=SC2086
      res=$($B train-words "$C.txt" --epochs 1 --threads 2 $flags --out "$out" 2>/dev/null | tail -n1)
    else
      # shellcheck disable=SC2086
      res=$($B train-words "$C.txt" --epochs 1 --threads 2 $(echo " $flags" | sed -E 's/ --(dim|rank) [^ ]+//g; s/ --diagonal//g') --resume "$out" --out "$out" 2>/dev/null | tail -n1)
    fi
    ctx=$($B eval-similarity "$out" --pairs "$C-sim.tsv" --set context 2>/dev/null | tail -n1)
    inp=$($B eval-similarity "$out" --pairs "$C-sim.tsv" --set input 2>/dev/null | tail -n1)
    /usr/bin/python3 -c 'import json,sys; r,c,i=(json.loads(x) for x in sys.argv[2:5]); print(sys.argv[1], r["epochs"], round(c["spearman"],1), round(i["spearman"],1), round(r["loss"],3), round(r["seconds"],1))' \
      "$name" "$res" "$ctx" "$inp"
  done
done
