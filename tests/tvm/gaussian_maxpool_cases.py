"""The fused Gaussian -> max pool algorithms against maxpool(gaussian(I)) (runtime/core/reference.cpp)."""
from generators.tvm import gaussian_maxpool
from gaussian_cases import contract_weights, gaussian_model, scalars
from maxpool_cases import half_shape, maxpool_model
from tvm_run import run


def case(algorithm, sigma):
    return (f"gaussian_maxpool.{algorithm.__name__} sigma={sigma} w={contract_weights(sigma)}",
            lambda im: run(algorithm(), im, half_shape(im), scalars(sigma)),
            lambda im: maxpool_model(gaussian_model(im, sigma)))


CASES = [case(a, s) for a in (gaussian_maxpool.RowsFirst, gaussian_maxpool.ColumnsFirst) for s in (1.0, 2.5)]
