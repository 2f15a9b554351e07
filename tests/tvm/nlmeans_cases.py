"""The NL-means algorithms against FILTERS.md's nlmeans, in double precision.

NL-means is the one float filter: the contract's check is a tolerance, not
equality: every output sample within 1 of a double-precision reference and at
least 99% of the samples equal to it. check_algorithms.py compares run() and
model() with np.array_equal, so each case's model runs the algorithm too and
returns the TVM output itself when that is within the tolerance of the double
reference, and the reference otherwise: equal means "within tolerance", and a
failure prints as a mismatch against the reference. (So the model here is not
independent of run(): it is the tolerance test written as an equality.)

Small windows (patch 0 or 1, search 2 or 3) keep the CPU runs short; h is 25
or 60 because on the random test images h = 10 leaves every sample as it was
(the weights of other offsets underflow), which would test nothing.
"""
import numpy as np

from generators.tvm import nlmeans
from tvm_run import clamp_pad, run

H = 10.0  # FILTERS.md's default h


def nlmeans_reference(image, p, s, h):
    """FILTERS.md's nlmeans in float64, image (channels, height, width) uint8."""
    c, hgt, wid = image.shape
    r = p + s
    J = clamp_pad(image, r).astype(np.float64)
    q = 2 * p + 1
    numerators = np.zeros((c, hgt, wid))
    total = np.zeros((hgt, wid))
    for dy in range(-s, s + 1):
        for dx in range(-s, s + 1):
            # squared differences over channels, at every position the patches reach
            a = J[:, s:s + hgt + 2 * p, s:s + wid + 2 * p]
            b = J[:, s + dy:s + dy + hgt + 2 * p, s + dx:s + dx + wid + 2 * p]
            diff = ((a - b) ** 2).sum(axis=0)
            d2 = sum(diff[j:j + hgt, i:i + wid] for j in range(q) for i in range(q)) / (c * q * q)
            w = np.exp(-d2 / (h * h))
            total += w
            numerators += w * J[:, r + dy:r + dy + hgt, r + dx:r + dx + wid]
    u = numerators / total
    return np.floor(np.clip(u, 0, 255) + 0.5).astype(np.uint8)


def within_tolerance(got, want):
    """FILTERS.md: every sample within 1, at least 99% equal."""
    difference = np.abs(got.astype(np.int64) - want.astype(np.int64))
    return got.shape == want.shape and difference.max(initial=0) <= 1 and np.mean(difference == 0) >= 0.99


def tolerant_model(algorithm, p, s, h=H):
    """The model of one case: the TVM output if it is within tolerance of the double reference, else the reference."""
    def model(image):
        want = nlmeans_reference(image, p, s, h)
        got = run(algorithm(p, s), image, image.shape, (h,))
        return got if within_tolerance(got, want) else want
    return model


def case(algorithm, p, s, h=H):
    return (f"nlmeans.{algorithm.__name__} p={p} s={s} h={h}",
            lambda im: run(algorithm(p, s), im, im.shape, (h,)), tolerant_model(algorithm, p, s, h))


CASES = [
    case(nlmeans.Direct, 1, 2, 60.0),
    case(nlmeans.Direct, 1, 3, 25.0),
    case(nlmeans.Direct, 0, 2, 60.0),
    case(nlmeans.Symmetric, 1, 2, 60.0),
    case(nlmeans.Symmetric, 1, 3, 25.0),
    case(nlmeans.Symmetric, 0, 2, 60.0),
]
