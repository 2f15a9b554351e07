"""The max pool's algorithm against FILTERS.md's 2x2 max pooling, stride 2."""
import numpy as np

from generators.tvm import maxpool
from tvm_run import run


def half_shape(image):
    """The pooled output's shape; W or H below 2 is the contract's error."""
    c, h, w = image.shape
    if h < 2 or w < 2:
        raise ValueError(f"maxpool needs an image of at least 2x2, not {w}x{h}")
    return (c, h // 2, w // 2)


def maxpool_model(image):
    c, h, w = half_shape(image)
    a = image[:, :2 * h, :2 * w]
    return np.maximum(np.maximum(a[:, 0::2, 0::2], a[:, 0::2, 1::2]), np.maximum(a[:, 1::2, 0::2], a[:, 1::2, 1::2]))


CASES = [
    ("maxpool.Direct", lambda im: run(maxpool.Direct(), im, half_shape(im)), maxpool_model),
]
