"""PyTorch's operators as a user with 8-bit images calls them (imported by
scripts/peers_python.py, which checks and times them like every peer).

On the CPU and on the GPU:
  py_torch_max_pool2d  max pooling, F.max_pool2d(x, 2): the contract's
                       function (floor(W/2) x floor(H/2)); on uint8 where
                       PyTorch takes it, else on a float32 copy (the note says which)
  py_torch_avg_pool2d  the box: F.avg_pool2d over the replicate-padded image
                       with divisor_override=1 gives the window's sum, exact
                       in float32 (at most 255 * 31² < 2^24); the mean is then
                       rounded half up in int32 as the contract rounds
  py_torch_conv2d      the Gaussian: F.conv2d with the contract's 5x5 integer
                       weights (outer product of [14, 63, 102, 63, 14]),
                       sums exact in float32 (at most 255 * 65536 < 2^24), then
                       (sum + 32768) >> 16
PyTorch's pooling and convolution work in floating point, so each call pays
the conversions to float32 and back that a uint8 image needs; they are part
of what a user's call costs. The median has no PyTorch operator.
"""
import math

# σ = 1's weights (../shared/FILTERS.md); the peers run at σ = 1 only.
GAUSSIAN_WEIGHTS = [14, 63, 102, 63, 14]


def torch_version():
    import torch
    return torch.__version__


def torch_threads():
    import torch
    return torch.get_num_threads()


def _tensor_of(gpu):
    """NumPy or CuPy arrays seen as (1, 1, H, W) tensors without a copy, each wrapped once."""
    import torch
    views = {}

    def tensor(a):
        key = a.data.ptr if gpu else a.ctypes.data
        if key not in views:
            views[key] = (a, torch.as_tensor(a, device="cuda" if gpu else "cpu").view(1, 1, *a.shape))
        return views[key][1]
    return tensor


def _max_pool(tensor, gpu):
    """max_pool2d on uint8 where this PyTorch takes it, else on float32; and the note that says which."""
    import torch
    import torch.nn.functional as F
    try:
        F.max_pool2d(torch.zeros(1, 1, 2, 2, dtype=torch.uint8, device="cuda" if gpu else "cpu"), 2)
        return (lambda i, o: tensor(o).copy_(F.max_pool2d(tensor(i), 2))), "on uint8"
    except (RuntimeError, NotImplementedError) as e:
        why = str(e).splitlines()[0]
        return (lambda i, o: tensor(o).copy_(F.max_pool2d(tensor(i).float(), 2))), \
            f"on a float32 copy (uint8 refused: {why})"


def torch_function(name, params, gpu):
    """The call as f(input, output) writing into output, and a note on how it computes."""
    import torch
    import torch.nn.functional as F
    tensor = _tensor_of(gpu)
    device = "cuda" if gpu else "cpu"
    if name == "py_torch_max_pool2d":
        return _max_pool(tensor, gpu)
    if name == "py_torch_avg_pool2d":
        r = int(params.get("radius", 1))
        k, n = 2 * r + 1, (2 * r + 1) ** 2

        def box(i, o):
            x = F.pad(tensor(i).float(), (r, r, r, r), mode="replicate")
            sums = F.avg_pool2d(x, k, stride=1, divisor_override=1).round().to(torch.int32)
            tensor(o).copy_(torch.div(sums + n // 2, n, rounding_mode="floor"))
        return box, "window sums exact in float32, rounded half up in int32"
    if name == "py_torch_conv2d":
        if not math.isclose(float(params.get("sigma", 1)), 1.0):
            raise ValueError("py_torch_conv2d holds the weights of sigma = 1 only")
        torch.backends.cudnn.allow_tf32 = False  # TF32's 10-bit mantissa would round the sums
        w1 = torch.tensor(GAUSSIAN_WEIGHTS, dtype=torch.float32, device=device)
        weights = torch.outer(w1, w1).view(1, 1, 5, 5)

        def gaussian(i, o):
            x = F.pad(tensor(i).float(), (2, 2, 2, 2), mode="replicate")
            sums = F.conv2d(x, weights).round().to(torch.int32)  # an FFT or Winograd algorithm is off by < 0.5
            tensor(o).copy_(torch.bitwise_right_shift(sums + 32768, 16))
        return gaussian, "the contract's integer weights in float32 (TF32 off), sums rounded to integers"
    raise KeyError(name)
