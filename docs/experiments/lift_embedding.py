#!/usr/bin/env python3
"""Lift a d0-dimensional Burescope embedding (JSON, gaussian family) to
dimension d with the same reconstruction ranks: means padded with zeros,
covariances block-diagonal diag(C, eps I), then one common random rotation
R applied to all (means R m, covariances R C R^T). The pseudo dot product
<m_u, m_w> + tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} only shifts by (d - d0) eps
and is invariant under the common rotation, so every rank is unchanged;
the matrices are generic d x d ones. Used to time eval-relations at d = 10
on an embedding as good as a trained d = 2 one (docs/hypernymy.md).

usage: lift_embedding.py IN.json OUT.json D [EPS] [SEED]
"""
import json
import math
import random
import sys


def rotation(d, rng):
    # Gram-Schmidt on a Gaussian matrix: a uniformly random orthogonal matrix.
    q = []
    while len(q) < d:
        v = [rng.gauss(0, 1) for _ in range(d)]
        for u in q:
            c = sum(a * b for a, b in zip(u, v))
            v = [a - c * b for a, b in zip(v, u)]
        n = math.sqrt(sum(a * a for a in v))
        if n > 1e-8:
            q.append([a / n for a in v])
    return q  # rows orthonormal


def main():
    src, dst, d = sys.argv[1], sys.argv[2], int(sys.argv[3])
    eps = float(sys.argv[4]) if len(sys.argv) > 4 else 0.01
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    e = json.load(open(src))
    if e.get("family") != "gaussian" or "covariances" not in e:
        sys.exit("want a gaussian embedding with covariances")
    d0 = e["dim"]
    r = rotation(d, random.Random(seed))
    means, covs = [], []
    for m, c in zip(e["means"], e["covariances"]):
        mm = [float(x) for x in m] + [0.0] * (d - d0)
        means.append([sum(r[i][k] * mm[k] for k in range(d)) for i in range(d)])
        big = [[0.0] * d for _ in range(d)]
        for i in range(d0):
            for j in range(d0):
                big[i][j] = float(c[i][j])
        for i in range(d0, d):
            big[i][i] = eps
        # R big R^T
        rb = [[sum(r[i][k] * big[k][j] for k in range(d)) for j in range(d)] for i in range(d)]
        out = [[sum(rb[i][k] * r[j][k] for k in range(d)) for j in range(d)] for i in range(d)]
        for i in range(d):
            for j in range(i):
                out[i][j] = out[j][i]
        covs.append(out)
    e["dim"], e["means"], e["covariances"] = d, means, covs
    json.dump(e, open(dst, "w"))


if __name__ == "__main__":
    main()
