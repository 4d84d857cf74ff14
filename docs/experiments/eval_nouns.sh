#!/bin/bash
# Times eval-relations on the WordNet noun closure (82,115 nouns) at d = 2
# and 10, both protocols (docs/hypernymy.md, "Cost at the nouns' size").
# Run by hand, not in CI: about an hour of CPU on 2 cores. Needs
# wordnet-base (/usr/share/wordnet) and python3. Outputs go to $OUT.
set -euo pipefail
OUT=${OUT:-/tmp/eval_nouns}
BS=${BS:-burescope}
WN=wordnet:/usr/share/wordnet
mkdir -p "$OUT"
cd "$OUT"
here=$(cd "$(dirname "$0")" && pwd)

train() { # dim epochs file
	[ -f "$3" ] || nice -n 10 "$BS" train-relations $WN --dim "$1" --epochs "$2" --no-eval --workers 2 --out "$3" >/dev/null
}
run() { # name args...
	local name=$1
	shift
	uptime >"$name.load"
	/usr/bin/time -v nice -n 10 "$BS" eval-relations "$@" --workers 2 >"$name.json" 2>"$name.err"
	uptime >>"$name.load"
	tail -1 "$name.json"
	grep -E "User time|System time|Elapsed|Maximum resident" "$name.err"
}

train 2 1 nouns2.json
train 2 10 nouns2e10.json
train 10 1 nouns10.json
[ -f nouns2e10_lift10.json ] || python3 "$here/lift_embedding.py" nouns2e10.json nouns2e10_lift10.json 10

run d2e1_dir nouns2.json $WN
run d2e10_dir nouns2e10.json $WN
run d2e1_undir nouns2.json $WN --protocol undirected
run d10e1_dir_every200 nouns10.json $WN --every 200
run d10e1_undir_every200 nouns10.json $WN --every 200 --protocol undirected
run d10lift_dir nouns2e10_lift10.json $WN
