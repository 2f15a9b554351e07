"""The fused Gaussian -> max pool algorithms against maxpool(gaussian(I)) (runtime/core/reference.cpp)."""
from generators.tvm import gaussian_maxpool, gaussian_maxpool_framed
from gaussian_cases import contract_weights, gaussian_model, scalars
from maxpool_cases import half_shape, maxpool_model
from tvm_run import run


def case(algorithm, sigma):
    return (f"gaussian_maxpool.{algorithm.__name__} sigma={sigma} w={contract_weights(sigma)}",
            lambda im: run(algorithm(), im, half_shape(im), scalars(sigma)),
            lambda im: maxpool_model(gaussian_model(im, sigma)))


CASES = [case(a, s) for a in (gaussian_maxpool.RowsFirst, gaussian_maxpool.ColumnsFirst) for s in (1.0, 2.5)]


def framed_case(sigma, rows, lanes):
    """gaussian_maxpool_framed.RowsFirstFramed: the interior (whole tiles of rows x lanes pooled outputs) and its
    frame, on the shared shapes and on shapes with one tile (even, odd), several, and rows and columns beside them."""
    shapes = [(1, 2, 2), (1, 7, 13), (3, 17, 5), (2, 31, 29), (1, 4 + 2 * rows, 4 + 2 * lanes),
              (1, 5 + 2 * rows, 5 + 2 * lanes), (1, 3 + 2 * rows, 40), (1, 40, 3 + 2 * lanes), (2, 45, 70),
              (1, 2, 100), (1, 100, 3)]
    return (f"gaussian_maxpool_framed.RowsFirstFramed rows={rows} lanes={lanes} sigma={sigma}",
            lambda im: run(gaussian_maxpool_framed.RowsFirstFramed(rows=rows, lanes=lanes), im, half_shape(im),
                           scalars(sigma)),
            lambda im: maxpool_model(gaussian_model(im, sigma)), shapes)


CASES += [framed_case(1.0, 4, 2), framed_case(2.5, 2, 4)]
