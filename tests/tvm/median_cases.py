"""The median algorithms against FILTERS.md's exact median (clamp border), at
every size the contract allows (3, 5, 7): Direct and Separable at the tiles,
sample widths and strips the schedules use (schedules/median/tvm_median.py)
and a few more (tiles that do not divide the test images, a strip of
Direct), with the same TIR the CUDA schedules start from."""
import numpy as np

from generators.tvm import median
from tvm_run import clamp_pad, run


def median_model(image, k):
    """The ((k^2+1)/2)-th smallest of each clamped k x k window."""
    r = k // 2
    p = clamp_pad(image, r)
    c, h, w = image.shape
    window = np.stack([p[:, j:j + h, i:i + w] for j in range(k) for i in range(k)])
    return np.sort(window, axis=0)[(k * k - 1) // 2].astype(np.uint8)


# A point of a sweep is checked on a 1x1 image, one whose sides no tile or strip
# divides, and two channels (each shape is a CPU compilation of its own).
FEW_SHAPES = [(1, 1, 1), (2, 31, 29)]


def _case(algorithm, k, tile, bits, strip=1, pairs=None, staged=False):
    name = f"median.{algorithm.__name__} size={k} tile={tile[0]}x{tile[1]} bits={bits} strip={strip} pairs={pairs}"
    name += " staged" * staged
    return (name, lambda im: run(algorithm(k, tile_x=tile[0], tile_y=tile[1], bits=bits, strip=strip, pairs=pairs,
                                           staged=staged), im, im.shape),
            lambda im: median_model(im, k))


# (algorithm, size, tile, bits, strip, pairs): the schedules' first (tile,
# register_block, sep_strip, sep_tile, sep_strip_pairs at 5; at 7 in a strip of one
# tile: a strip of four is slow to compile for the CPU), then other
# shapes and widths. Pairs run here with the portable lane-by-lane min and max
# (median_networks.packed_op), on the GPU with __vminu2 / __vmaxu2.
CASES = [_case(*c) for c in [
    (median.Direct, 3, (1, 1), 32), (median.Direct, 5, (1, 1), 32), (median.Direct, 7, (1, 1), 32),
    (median.Direct, 3, (4, 4), 16), (median.Separable, 5, (2, 1), 16, 4), (median.Separable, 7, (4, 1), 32),
    (median.Separable, 5, (2, 1), 16, 4, "portable"), (median.Separable, 7, (2, 1), 16, 1, "portable"),
    (median.Direct, 3, (1, 1), 16, 1, "portable"),
    (median.Direct, 5, (3, 2), 16, 2), (median.Separable, 3, (4, 4), 16), (median.Separable, 3, (3, 2), 32, 2),
    (median.Separable, 5, (2, 2), 32),
]] + [_case(*c) + (FEW_SHAPES,) for c in [  # the packed pairs at other points of their sweeps' algorithm axes, staged
    (median.Separable, 3, (2, 1), 16, 8, "portable"), (median.Separable, 5, (2, 1), 16, 2, "portable"),
    (median.Direct, 3, (2, 4), 16, 1, "portable"), (median.Direct, 3, (4, 2), 16, 1, "portable"),
    (median.Direct, 3, (2, 4), 16, 1, "portable", True), (median.Separable, 5, (2, 1), 16, 2, None, True),
]]
