"""The box probes' gold: FILTERS.md's box with the clamp border, in NumPy
(reports/halide/probes/box_words.py and box_words_io.py check against it)."""
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


def realize_on_words(box, a, r):
    """Runs a word-in word-out probe pipeline (box.words, box.width, box.r,
    box.out) on the uint8 image `a` on the CPU: its rows padded to 16 bytes,
    seen as words; returns the output's bytes of the image."""
    import halide as hl
    hh, ww = a.shape
    padded = np.zeros((hh, (ww + 15) // 16 * 16), np.uint8)
    padded[:, :ww] = a
    box.words.set(hl.Buffer(padded.view(np.uint32)))
    box.width.set(ww)
    box.r.set(r)
    res = np.asarray(box.out.realize([padded.shape[1] // 4, hh]))
    return np.ascontiguousarray(res).view(np.uint8)[:, :ww]
