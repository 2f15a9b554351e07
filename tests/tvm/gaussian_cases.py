"""The Gaussian's algorithms against FILTERS.md's fixed-point 5x5 blur."""
import math

import numpy as np

from generators.tvm import gaussian
from tvm_run import clamp_pad, run


def contract_weights(sigma):
    """FILTERS.md's w_-2..w_2: round half away from zero, the centre corrected to a sum of 256."""
    g = [math.exp(-(i * i) / (2 * sigma * sigma)) for i in range(-2, 3)]
    total = sum(g)
    w = [int(math.floor(256 * v / total + 0.5)) for v in g]  # positive: half away from zero is half up
    w[2] += 256 - sum(w)
    return w


assert contract_weights(1.0) == [14, 63, 102, 63, 14]


def scalars(sigma):
    """The algorithm's scalars (w0 the centre, w1, w2), as tvm_variant.cpp fills them."""
    w = contract_weights(sigma)
    return (w[2], w[3], w[4])


def gaussian_model(image, sigma):
    w, p = contract_weights(sigma), clamp_pad(image, 2)
    c, h, wd = image.shape
    total = sum(w[i] * w[j] * p[:, i:i + h, j:j + wd] for i in range(5) for j in range(5))
    return ((total + 32768) >> 16).astype(np.uint8)


def case(algorithm, sigma):
    return (f"gaussian.{algorithm.__name__} sigma={sigma} w={contract_weights(sigma)}",
            lambda im: run(algorithm(), im, im.shape, scalars(sigma)),
            lambda im: gaussian_model(im, sigma))


CASES = [case(a, s) for a in (gaussian.RowsFirst, gaussian.ColumnsFirst, gaussian.Direct) for s in (1.0, 0.6)]


def interior_case(sigma, rows):
    """gaussian_interior.RowsFirstInterior, built for each image's shape (refused where its tiles do not fit)."""
    from generators.tvm import gaussian_interior

    refused = {(1, 7, 13)}  # below one tile and its frame; any other refusal fails the check

    def run_words(im):
        try:
            alg = gaussian_interior.RowsFirstInterior(im.shape[1], im.shape[2], rows=rows)
        except ValueError:
            if im.shape in refused:
                raise
            raise AssertionError(f"gaussian_interior refused {im.shape}, which has whole tiles")
        return run(alg, im.view(np.uint32), im.shape, scalars(sigma), row_bytes=im.shape[2])
    # Shapes with one tile column, several, rows below the last tile row, two channels, and one it refuses.
    shapes = [(1, 12, 48), (2, 36, 64), (1, 17, 80)] + sorted(refused)
    return (f"gaussian_interior.RowsFirstInterior rows={rows} sigma={sigma}", run_words, lambda im: gaussian_model(im, sigma),
            shapes)


CASES += [interior_case(1.0, 4), interior_case(0.6, 8)]


def framed_case(sigma, rows, lanes):
    """gaussian_framed.RowsFirstFramed: the interior (whole tiles of rows x lanes) and its frame, on the shared
    shapes (most without a whole tile) and on shapes with one tile, several, rows and columns beside the last."""
    from generators.tvm import gaussian_framed

    shapes = [(1, 1, 1), (1, 2, 2), (1, 7, 13), (3, 17, 5), (2, 31, 29), (1, 4 + rows, 4 + lanes), (1, 3 + rows, 40),
              (1, 40, 3 + lanes), (2, 45, 70), (1, 4, 100), (1, 100, 4)]
    return (f"gaussian_framed.RowsFirstFramed rows={rows} lanes={lanes} sigma={sigma}",
            lambda im: run(gaussian_framed.RowsFirstFramed(rows=rows, lanes=lanes), im, im.shape, scalars(sigma)),
            lambda im: gaussian_model(im, sigma), shapes)


CASES += [framed_case(1.0, 8, 4), framed_case(0.6, 4, 2)]
