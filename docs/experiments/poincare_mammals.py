#!/usr/bin/env python3
"""Poincare embeddings (gensim's PoincareModel) on the WordNet mammal
closure, scored by Burescope's two reconstruction protocols.

Run by hand (not CI), with Debian's python and gensim:

    apt-get install -y python3-gensim
    ./burescope relations builtin:mammals --out /tmp/mammals.tsv
    nice -n 10 /usr/bin/python3 docs/experiments/poincare_mammals.py /tmp/mammals.tsv \
        --dims 2 5 10 --epochs 50 --seeds 1 2 > poincare_mammals.jsonl

gensim's own ReconstructionEvaluation fails with Debian's numpy (AxisError)
and keeps the query node among the candidates, so the ranking is done
here, by the definitions of docs/hypernymy.md (the score is minus the
Poincare distance):

- directed: for every (u, v), rank = 1 + #{w non-ancestor of u, w != u :
  s(u, w) > s(u, v)}; AP(u) = mean_i i / (i + rank_i - 1) over u's
  ancestors sorted by score; MAP over the items with an ancestor;
- undirected (the elliptical paper's authors' code): the positives of u
  are its ancestors and descendants, u itself is a candidate, queries are
  the items with an ancestor.

negative=50 makes gensim's sampler stall on this closure, so the settings
are gensim's working ones: negative=10, burn_in=10, alpha=0.3 (documented
in docs/hypernymy.md). Each line of output is one JSON object.
"""
import argparse
import json
import sys
import time

import numpy as np
from gensim.models.poincare import PoincareModel


def read_pairs(path):
    pairs = []
    with open(path) as f:
        for k, line in enumerate(f):
            a = line.rstrip("\n").split("\t")
            if k == 0 and a == ["child", "ancestor"]:
                continue
            if len(a) >= 2 and a[0] != a[1]:
                pairs.append((a[0], a[1]))
    return pairs


def poincare_dist(x, ys):
    """Poincare distance from x (d,) to every row of ys (n, d)."""
    sq = np.sum((ys - x) ** 2, axis=1)
    nx = np.sum(x * x)
    ny = np.sum(ys * ys, axis=1)
    arg = 1 + 2 * sq / ((1 - nx) * (1 - ny))
    return np.arccosh(np.maximum(arg, 1.0))


def evaluate(vecs, index, pairs, undirected):
    n = len(index)
    pos = [set() for _ in range(n)]
    query = np.zeros(n, bool)
    for c, a in pairs:
        u, v = index[c], index[a]
        pos[u].add(v)
        query[u] = True
        if undirected:
            pos[v].add(u)
    ranks, aps = [], []
    for u in range(n):
        if not query[u]:
            continue
        s = -poincare_dist(vecs[u], vecs)
        p = np.array(sorted(pos[u]))
        mask = np.ones(n, bool)
        mask[p] = False
        if not undirected:
            mask[u] = False
        neg = np.sort(s[mask])
        ps = s[p]
        above = len(neg) - np.searchsorted(neg, ps, side="right")
        r = 1 + above
        ranks.extend(r.tolist())
        rs = np.sort(r)
        i = np.arange(1, len(rs) + 1)
        aps.append(np.mean(i / (rs + i - 1)))
    return float(np.mean(ranks)), float(np.mean(aps))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs")
    ap.add_argument("--dims", type=int, nargs="+", default=[2, 5, 10])
    ap.add_argument("--epochs", type=int, default=50)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1])
    ap.add_argument("--negative", type=int, default=10)
    ap.add_argument("--burn-in", type=int, default=10)
    ap.add_argument("--alpha", type=float, default=0.3)
    args = ap.parse_args()
    pairs = read_pairs(args.pairs)
    for d in args.dims:
        for seed in args.seeds:
            t0 = time.time()
            c0 = time.process_time()
            model = PoincareModel(pairs, size=d, negative=args.negative, burn_in=args.burn_in,
                                  alpha=args.alpha, seed=seed, workers=1)
            model.train(epochs=args.epochs)
            kv = model.kv
            index = {w: i for i, w in enumerate(kv.index_to_key)}
            vecs = np.asarray(kv.vectors, dtype=np.float64)
            dr, dm = evaluate(vecs, index, pairs, undirected=False)
            ur, um = evaluate(vecs, index, pairs, undirected=True)
            print(json.dumps({"model": "gensim PoincareModel", "dim": d, "seed": seed, "epochs": args.epochs,
                              "negative": args.negative, "burn_in": args.burn_in, "alpha": args.alpha,
                              "n": len(index), "pairs": len(pairs),
                              "mean_rank": dr, "map": dm, "undir_mean_rank": ur, "undir_map": um,
                              "seconds": time.time() - t0, "cpu_seconds": time.process_time() - c0}))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
