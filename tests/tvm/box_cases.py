"""The box algorithms against FILTERS.md's mean (rounded half up)."""
import numpy as np

import box
from tvm_run import clamp_pad, run


def box_model(image, r):
    p, k = clamp_pad(image, r), 2 * r + 1
    c, h, w = image.shape
    total = sum(p[:, j:j + h, i:i + w] for j in range(k) for i in range(k))
    return ((total + k * k // 2) // (k * k)).astype(np.uint8)


CASES = [
    ("box.Direct r=2", lambda im: run(box.Direct(2), im, im.shape), lambda im: box_model(im, 2)),
    ("box.Separable r=3", lambda im: run(box.Separable(3), im, im.shape), lambda im: box_model(im, 3)),
]
