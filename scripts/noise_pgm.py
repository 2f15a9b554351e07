#!/usr/bin/env python3
"""Gray images of uniform noise for the profiler runs of the device scripts:
DIR/noiseN.pgm for each size N (square, seed 1, so every call profiles the
same pixels). usage: noise_pgm.py DIR N [N ...]"""
import sys

import numpy as np

folder = sys.argv[1]
for n in map(int, sys.argv[2:]):
    a = np.random.default_rng(1).integers(0, 256, (n, n), dtype=np.uint8)
    with open(f"{folder}/noise{n}.pgm", "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (n, n) + a.tobytes())
