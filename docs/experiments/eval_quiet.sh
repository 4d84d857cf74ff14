#!/bin/bash
# The exact evaluation at d = 10 on all WordNet nouns (issue 23, point 3:
# at most 60 s), on a quiet machine: the new build on all rows of both
# protocols, and old and new alternating on every 20th row (a ratio in
# the same run). Each run under /usr/bin/time; the load average before
# and after each. Not CI. Usage:
#
#   OLD=path/to/old/burescope NEW=path/to/new/burescope EMB=nouns50_d10.json \
#     bash docs/experiments/eval_quiet.sh OUTDIR
set -u
out=${1:?usage: eval_quiet.sh OUTDIR}
wn=wordnet:${WORDNET:-/usr/share/wordnet}
mkdir -p "$out"
run() { # name binary args...
	local name=$1 bin=$2
	shift 2
	uptime >"$out/$name.load"
	/usr/bin/time -f "%e s wall, %U s user, %S s sys, %M KB" "$bin" eval-relations "$EMB" "$wn" --workers 2 "$@" \
		>"$out/$name.json" 2>"$out/$name.err"
	uptime >>"$out/$name.load"
	echo "$name: $(tail -1 "$out/$name.err") :: $(cat "$out/$name.json")"
}
run new_all_1 "$NEW"
run new_all_2 "$NEW"
for k in 1 2; do
	run old_every20_$k "$OLD" --every 20
	run new_every20_$k "$NEW" --every 20
done
run new_undirected "$NEW" --protocol undirected
