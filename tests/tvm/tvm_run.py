"""Running a TVM algorithm on the CPU for tests/tvm/check_algorithms.py."""
import numpy as np
import tvm


_compiled = {}


def run(alg, image, out_shape, scalars=(), row_bytes=None):
    """alg (unscheduled) on `image` (channels, height, width), compact strides;
    scalars in the order of alg.scalars. Each function is compiled once
    (the cases build their algorithm anew for every image). An image read
    as words (uint32) gives its width in bytes as row_bytes."""
    key = alg.func.script()
    if key not in _compiled:
        _compiled[key] = tvm.compile(alg.func, target="llvm")
    f = _compiled[key]
    c, h, w = image.shape
    w = row_bytes or w
    out = np.zeros(out_shape, np.uint8)
    a, b = tvm.runtime.tensor(image), tvm.runtime.tensor(out)
    f(a, b, c, h, w, h * w, w, out_shape[1] * out_shape[2], out_shape[2], *scalars)
    return b.numpy()


def clamp_pad(image, r):
    """The image with r samples of the clamp border around each plane, as int64."""
    return np.pad(image, ((0, 0), (r, r), (r, r)), mode="edge").astype(np.int64)
