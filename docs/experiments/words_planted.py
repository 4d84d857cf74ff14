#!/usr/bin/python3
"""Planted-similarity corpus for the word-embedding experiments
(docs/words.md): a text corpus whose word similarities are known and
graded, to measure whether a trainer's settings learn anything.

Every content word w gets a hidden position x_w on the unit torus
[0, 1)^2 and a Zipfian weight 1/rank(w)^z (z = --zipf). A sentence picks a centre c
uniformly on the torus and draws its words: with probability --function
a function word (Zipfian over --function-words words, frequent, spread
everywhere: what subsampling is for), otherwise a content word with
probability proportional to weight(w) exp(-|x_w - c|^2 / (2 s^2)) (torus
distance, s = --spread). Words whose hidden positions are close therefore
share contexts, and the closer the more often: the planted similarity of
two content words is minus their torus distance.

The pair file has --pairs pairs of content words seen at least
--min-pair-count times, stratified over five distance bins of equal width
in [0, --max-dist], scored 1 - distance / max-dist (higher is more
similar), in the tab-separated layout words_gensim.py and
`burescope eval-similarity` read.

usage: words_planted.py OUT_PREFIX [--tokens 300000] [--words 2000]
       [--function-words 50] [--function 0.4] [--spread 0.05] [--zipf 0.7]
       [--length 12] [--pairs 1000] [--max-dist 0.25] [--seed 1]
writes OUT_PREFIX.txt (one sentence a line) and OUT_PREFIX-sim.tsv.
"""
import argparse
import random

import numpy as np


def torus_dist(a, b):
    d = np.abs(a - b)
    d = np.minimum(d, 1 - d)
    return np.sqrt((d * d).sum(axis=-1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--tokens", type=int, default=300000)
    ap.add_argument("--words", type=int, default=2000)
    ap.add_argument("--function-words", type=int, default=50)
    ap.add_argument("--function", type=float, default=0.4)
    ap.add_argument("--spread", type=float, default=0.05)
    ap.add_argument("--length", type=int, default=12)
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--max-dist", type=float, default=0.25)
    ap.add_argument("--min-pair-count", type=int, default=20)
    ap.add_argument("--zipf", type=float, default=0.7)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    pos = rng.random((a.words, 2))
    # Zipfian weights over a random order of the content words, so that
    # frequency and position are independent.
    rank = rng.permutation(a.words) + 1
    weight = 1.0 / rank ** a.zipf
    fweight = 1.0 / np.arange(1, a.function_words + 1)
    fweight /= fweight.sum()
    content = [f"w{i}" for i in range(a.words)]
    function = [f"f{i}" for i in range(a.function_words)]
    counts = np.zeros(a.words, dtype=np.int64)
    n = 0
    with open(a.out + ".txt", "w") as f:
        while n < a.tokens:
            c = rng.random(2)
            p = weight * np.exp(-torus_dist(pos, c) ** 2 / (2 * a.spread ** 2))
            p /= p.sum()
            isf = rng.random(a.length) < a.function
            nc = int((~isf).sum())
            cw = rng.choice(a.words, size=nc, p=p)
            fw = rng.choice(a.function_words, size=a.length - nc, p=fweight)
            np.add.at(counts, cw, 1)
            ci, fi = iter(cw), iter(fw)
            words = [function[next(fi)] if x else content[next(ci)] for x in isf]
            f.write(" ".join(words) + "\n")
            n += a.length
    # Pairs: stratified over distance bins among words seen often enough.
    ok = np.flatnonzero(counts >= a.min_pair_count)
    prng = random.Random(a.seed)
    bins = [[] for _ in range(5)]
    per = a.pairs // 5
    tries = 0
    while min(len(b) for b in bins) < per and tries < 5_000_000:
        tries += 1
        i, j = prng.sample(list(ok), 2) if len(ok) < 64 else (ok[prng.randrange(len(ok))], ok[prng.randrange(len(ok))])
        if i == j:
            continue
        d = float(torus_dist(pos[i], pos[j]))
        if d >= a.max_dist:
            continue
        b = bins[int(5 * d / a.max_dist)]
        if len(b) < per:
            b.append((i, j, d))
    with open(a.out + "-sim.tsv", "w") as f:
        f.write("word1\tword2\tsimilarity\n")
        for b in bins:
            for i, j, d in b:
                f.write(f"{content[i]}\t{content[j]}\t{1 - d / a.max_dist:.6f}\n")
    print(f"{n} tokens, {len(ok)} content words seen >= {a.min_pair_count} times, "
          f"{sum(len(b) for b in bins)} pairs")


if __name__ == "__main__":
    main()
