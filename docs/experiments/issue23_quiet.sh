#!/usr/bin/env bash
# Issue 23's points 2 and 3 in one run on a quiet machine, each against
# the tree the issue measured (main at 9645343) where that takes minutes,
# not hours:
#   - point 2: pair_speed.sh (MDS stress + gradient, wall ns per pair,
#     2 threads, d = 2 3 4 5 10 16, beside the NumPy forward-only script);
#   - point 3: one d = 10 epoch of all WordNet nouns (new, then old), the
#     exact evaluation at d = 10 over all nouns of a 50-epoch embedding
#     (new only: the old one took 447 s, docs/hypernymy.md), and one
#     epoch of words at d = 12 on Brown (2 threads) at the settings
#     docs/words.md gave when the issue was filed (the old tree's
#     defaults, today's `--preset paper`: window 5, subsampling 1e-5, one
#     negative, margin 10, Adagrad 0.01) for both trees, and at today's
#     defaults (5 negatives a pair, subsampling 1e-3, SGD) for the new.
# Without OLD only the new tree runs. Not CI. It waits (up to 4 minutes) for the load average to fall below 1
# and prints the load before every step. Usage, from the repository root:
#
#   go build -o burescope .
#   mkdir -p /tmp/old23 && git archive 9645343 | tar -x -C /tmp/old23
#   (cd /tmp/old23 && go build -o burescope .)
#   OLD=/tmp/old23/burescope EMB=nouns50_d10.json BROWN=brown.txt \
#     bash docs/experiments/issue23_quiet.sh OUTDIR
#
# EMB is a 50-epoch d = 10 noun embedding (docs/experiments/figure6_50.sh),
# BROWN the Brown corpus as one text file (docs/experiments/words.sh).
set -uo pipefail
out=${1:?usage: issue23_quiet.sh OUTDIR}
new=${NEW:-./burescope}
old=${OLD:-} # empty: the new tree alone
emb=${EMB:?EMB: a d = 10 noun embedding}
brown=${BROWN:?BROWN: the Brown corpus}
wn=wordnet:${WORDNET:-/usr/share/wordnet}
py=${PYTHON:-/usr/bin/python3}
mkdir -p "$out"
for i in $(seq 24); do
	l=$(cut -d' ' -f1 /proc/loadavg)
	echo "# wait $i: load $l"
	awk -v l="$l" 'BEGIN{exit !(l<1.0)}' && break
	sleep 10
done
echo "# $(date -u +%FT%TZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(nproc) CPUs"
step() { echo "## $1 (load $(cut -d' ' -f1-3 /proc/loadavg))"; }
timed() { # name binary args...: /usr/bin/time's line and the JSON's last line
	local name=$1 bin=$2
	shift 2
	/usr/bin/time -f "%e s wall, %U s user, %S s sys, %M KB" "$bin" "$@" >"$out/$name.json" 2>"$out/$name.err"
	echo "$name: $(tail -1 "$out/$name.err") :: $(tail -1 "$out/$name.json")"
}

step "point 2: pair speed"
OLD=$old BURESCOPE=$new DIMS="2 3 4 5 10 16" ROUNDS=${ROUNDS:-3} PYTHON=$py \
	bash docs/experiments/pair_speed.sh 2>&1 | tee "$out/pair_speed.txt"

step "point 3: one d = 10 epoch of all nouns"
for b in new ${old:+old}; do
	bin=$new
	[ $b = old ] && bin=$old
	timed "noun_epoch_$b" "$bin" train-relations "$wn" --dim 10 --epochs 1 --no-eval --workers 2 --out "$out/noun_epoch_$b.emb.json"
done

step "point 3: exact evaluation at d = 10, all nouns, directed"
timed eval_new "$new" eval-relations "$emb" "$wn" --workers 2

step "point 3: words, d = 12, Brown, one epoch, 2 threads"
timed words_filed_new "$new" train-words "$brown" --preset paper --epochs 1 --threads 2 --out "$out/w_new.npz"
[ -n "$old" ] && timed words_filed_old "$old" train-words "$brown" --epochs 1 --threads 2 --out "$out/w_old.npz"
timed words_defaults_new "$new" train-words "$brown" --epochs 1 --threads 2 --out "$out/w_def.npz"
step "end"
