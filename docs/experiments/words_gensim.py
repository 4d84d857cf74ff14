#!/usr/bin/python3
"""gensim Word2Vec skipgram anchor for docs/words.md: same corpus,
tokenisation, fixed window, negatives, subsampling and minimum count as
burescope train-words, evaluated on the same proxy pair files with the
same measures (Spearman x 100; AP and best-threshold F1, threshold chosen
on the evaluated pairs). Scores are cosines of the input vectors (wv) or,
with --set context, of the output vectors (syn1neg).

usage: words_gensim.py CORPUS... --sim FILE [--entail FILE] [--dim 90]
       [--window 5] [--negatives 1] [--subsample 1e-5] [--epochs 3]
       [--threads 2] [--seed 1] [--gensim-defaults]
Prints one JSON line.
"""
import argparse
import json
import logging
import sys
import time

import numpy as np
from gensim.models import Word2Vec

from words_proxies import tokenize


def ranks(x):
    x = np.asarray(x, dtype=float)
    order = np.argsort(x, kind="stable")
    r = np.empty(len(x))
    i = 0
    while i < len(x):
        j = i
        while j + 1 < len(x) and x[order[j + 1]] == x[order[i]]:
            j += 1
        r[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ra -= ra.mean()
    rb -= rb.mean()
    return float((ra * rb).sum() / np.sqrt((ra * ra).sum() * (rb * rb).sum()))


def ap_f1(score, label):
    order = sorted(range(len(score)), key=lambda i: -score[i])
    npos = sum(label)
    ap, tp, prev, best = 0.0, 0, 0.0, 0.0
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and score[order[j + 1]] == score[order[i]]:
            j += 1
        tp += sum(label[order[k]] for k in range(i, j + 1))
        rec = tp / npos
        ap += (rec - prev) * tp / (j + 1)
        prev = rec
        best = max(best, 2 * tp / (j + 1 + npos))
        i = j + 1
    return ap, best


def read_pairs(path):
    out = []
    with open(path) as f:
        next(f)
        for line in f:
            w1, w2, v = line.rstrip("\n").split("\t")[:3]
            out.append((w1, w2, float(v)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="+")
    ap.add_argument("--sim", required=True)
    ap.add_argument("--entail", default="")
    ap.add_argument("--gensim-defaults", action="store_true",
                    help="gensim's own defaults (d = 100, shrinking window 5, 5 negatives, subsampling 1e-3, "
                         "5 epochs, alpha 0.025); --threads, --seed and --min-count still apply")
    ap.add_argument("--dim", type=int, default=90)
    ap.add_argument("--window", type=int, default=5)
    ap.add_argument("--negatives", type=int, default=1)
    ap.add_argument("--min-count", type=int, default=5)
    ap.add_argument("--subsample", type=float, default=1e-5)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    sents = []
    ntok = 0
    for path in a.corpus:
        with open(path, encoding="utf-8") as f:
            for line in f:
                t = tokenize(line)
                if t:
                    sents.append(t)
                    ntok += len(t)
    t0 = time.time()
    if a.gensim_defaults:
        m = Word2Vec(sentences=sents, sg=1, min_count=a.min_count, workers=a.threads, seed=a.seed)
        a.dim, a.epochs = m.vector_size, m.epochs
    else:
        m = Word2Vec(sentences=sents, vector_size=a.dim, window=a.window, negative=a.negatives, sg=1, hs=0,
                     min_count=a.min_count, sample=a.subsample, epochs=a.epochs, workers=a.threads, seed=a.seed,
                     shrink_windows=False)
    secs = time.time() - t0
    res = {"model": "gensim-skipgram", "dim": a.dim, "epochs": a.epochs, "tokens": ntok, "seconds": secs,
           "tokens_per_sec": ntok * a.epochs / secs, "words": len(m.wv)}
    for setname, vecs in (("input", m.wv.vectors), ("context", m.syn1neg)):
        idx = m.wv.key_to_index
        unit = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
        sim = [(idx[u], idx[v], s) for u, v, s in read_pairs(a.sim) if u in idx and v in idx]
        res[f"{setname}_spearman"] = 100 * spearman([float(unit[i] @ unit[j]) for i, j, _ in sim], [s for _, _, s in sim])
        res["sim_pairs"] = len(sim)
        if not a.entail:
            continue
        ent = [(idx[u], idx[v], int(s)) for u, v, s in read_pairs(a.entail) if u in idx and v in idx]
        apv, f1 = ap_f1([float(unit[i] @ unit[j]) for i, j, _ in ent], [l for _, _, l in ent])
        res[f"{setname}_ap"], res[f"{setname}_f1"] = apv, f1
        res["entail_pairs"] = len(ent)
    print(json.dumps(res))


if __name__ == "__main__":
    main()
