#!/usr/bin/env python3
"""NumPy baseline of the MDS pair kernel, forward part only (docs/mds.md).

For n random positive definite d x d matrices: batched LAPACK eigh of every
A_i for A_i^{1/2} (once per item), then, for every pair i < j, eigh of
M = A_i^{1/2} A_j A_i^{1/2}, M^{1/2} = V diag(sqrt l) V^T and
tr M^{1/2} (no gradient: Burescope's kernel also computes both transport
maps). Pairs go in batches of --batch through numpy's stacked matmul and
eigh. Prints wall ns per pair, one JSON line per d.

    /usr/bin/python3 docs/experiments/numpy_bures.py --n 500 --dims 4,5,10,16

Run it beside `burescope bench --n N --dim d` in the same session (same
load). BLAS threads default to 1 (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS):
stacked eigh runs one small matrix at a time anyway, and on a loaded
2-core machine threaded BLAS made d = 10 five times slower (72 against
14 us per pair).
"""
import argparse
import json
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402 (after the thread settings)


def random_spd(rng, n, d):
    x = rng.standard_normal((n, d, d)) * 0.7
    return x @ np.swapaxes(x, 1, 2) / d + 0.1 * np.eye(d)


def run(n, d, batch, seed):
    rng = np.random.default_rng(seed)
    a = random_spd(rng, n, d)
    iu, ju = np.triu_indices(n, 1)
    t0 = time.perf_counter()
    lam, v = np.linalg.eigh(a)
    root = (v * np.sqrt(np.maximum(lam, 0))[:, None, :]) @ np.swapaxes(v, 1, 2)
    total = 0.0
    for s in range(0, len(iu), batch):
        i, j = iu[s:s + batch], ju[s:s + batch]
        r = root[i]
        m = r @ a[j] @ r
        m = 0.5 * (m + np.swapaxes(m, 1, 2))
        l, w = np.linalg.eigh(m)
        f = np.sqrt(np.maximum(l, 0))
        sq = (w * f[:, None, :]) @ np.swapaxes(w, 1, 2)
        total += float(np.trace(sq, axis1=1, axis2=2).sum())
    dt = time.perf_counter() - t0
    pairs = n * (n - 1) // 2
    return {"n": n, "dim": d, "ns_per_pair": dt * 1e9 / pairs, "seconds": dt, "checksum": total}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=500, help="number of matrices")
    ap.add_argument("--dims", default="4,5,10,16", help="comma-separated dimensions")
    ap.add_argument("--batch", type=int, default=4096, help="pairs per stacked call")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for d in (int(x) for x in args.dims.split(",")):
        print(json.dumps(run(args.n, d, args.batch, args.seed)), flush=True)


if __name__ == "__main__":
    main()
