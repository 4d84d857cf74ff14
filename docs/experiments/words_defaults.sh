#!/bin/bash
# The measurements behind train-words' defaults (docs/words.md, "Defaults"):
# on a planted-similarity corpus (words_planted.py), train with one setting
# changed at a time from the defaults, one epoch per call (--resume), and
# evaluate the Spearman correlation with the planted similarities after
# every epoch (context and input sets, mixture cosine and Wasserstein-Bures
# cosine). Every call passes --total-epochs EPOCHS, so a linear learning-rate
# schedule spans the whole run as in one call.
# usage: bash docs/experiments/words_defaults.sh WORKDIR CORPUS_PREFIX [NAME:FLAGS ...]
#   CORPUS_PREFIX.txt and CORPUS_PREFIX-sim.tsv must exist (words_planted.py);
#   each NAME:FLAGS is one run, e.g. "lr0.3:--lr 0.3"; EPOCHS (default 5);
#   BURESCOPE: a built binary to use instead of building one; THREADS (default 2).
# Prints one line per run and epoch: name epoch context input (mixture cosine)
# context input (Wasserstein-Bures cosine) loss seconds.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
W=$1
C=$2
shift 2
EPOCHS=${EPOCHS:-5}
THREADS=${THREADS:-2}
mkdir -p "$W"
if [ -z "${BURESCOPE:-}" ]; then
  (cd "$REPO" && go build -o "$W/burescope" .)
  BURESCOPE=$W/burescope
fi
B="nice -n 5 $BURESCOPE"
for spec in "$@"; do
  name=${spec%%:*}
  flags=${spec#*:}
  out="$W/$(basename "$C")_$name.npz"
  rm -f "$out"
  for e in $(seq 1 "$EPOCHS"); do
    if [ "$e" = 1 ]; then
      # shellcheck disable=SC2086
      res=$($B train-words "$C.txt" --epochs 1 --total-epochs "$EPOCHS" --threads "$THREADS" $flags --out "$out" 2>/dev/null | tail -n1)
    else
      # shellcheck disable=SC2086
      res=$($B train-words "$C.txt" --epochs 1 --total-epochs "$EPOCHS" --threads "$THREADS" $(echo " $flags" | sed -E 's/ --(dim|rank) [^ ]+//g; s/ --diagonal//g') --resume "$out" --out "$out" 2>/dev/null | tail -n1)
    fi
    ctx=$($B eval-similarity "$out" --pairs "$C-sim.tsv" --set context 2>/dev/null | tail -n1)
    inp=$($B eval-similarity "$out" --pairs "$C-sim.tsv" --set input 2>/dev/null | tail -n1)
    ctxb=$($B eval-similarity "$out" --pairs "$C-sim.tsv" --set context --by cosine 2>/dev/null | tail -n1)
    inpb=$($B eval-similarity "$out" --pairs "$C-sim.tsv" --set input --by cosine 2>/dev/null | tail -n1)
    python3 -c 'import json,sys; r,c,i,cb,ib=(json.loads(x) for x in sys.argv[2:7]); print(sys.argv[1], r["epochs"], round(c["spearman"],1), round(i["spearman"],1), round(cb["spearman"],1), round(ib["spearman"],1), round(r["loss"],3), round(r["seconds"],1), flush=True)' \
      "$name" "$res" "$ctx" "$inp" "$ctxb" "$inpb"
  done
done
