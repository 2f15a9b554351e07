"""The box probes' gold: FILTERS.md's box with the clamp border, in NumPy
(scripts/probes/box_words.py and box_words_io.py check against it)."""
import numpy as np


def box_np(a, r):
    """The (2r+1)^2 mean of a 2-D uint8 array, rounded half up, edges clamped."""
    p = np.pad(a.astype(np.int64), r, mode="edge")
    h, w = a.shape
    acc = np.zeros((h, w), np.int64)
    for dy in range(2 * r + 1):
        for dx in range(2 * r + 1):
            acc += p[dy:dy + h, dx:dx + w]
    n = (2 * r + 1) ** 2
    return ((acc + n // 2) // n).astype(np.uint8)
