"""Non-local means in TVMScript (FILTERS.md: nlmeans), float32 as the Halide
generator (generators/nlmeans.h) and the handwritten kernels compute it.

With P = (2p+1)^2, K = 2s+1 offsets a side, R = p + s (how far a pixel's
reads reach) and J the input as float with the clamp border:

    distance(y, x; dy, dx) = sum_c sum_{|i|,|j|<=p} (J(c, y+j, x+i) - J(c, y+dy+j, x+dx+i))^2
    weight                 = exp(-distance / (C * P * h^2))
    accum(k, y, x)         = sum_{dy, dx} weight * J(k, y+dy, x+dx)      k < C
    accum(M, y, x)         = sum_{dy, dx} weight                         (the weights' total)
    output(c, y, x)        = floor(clamp(accum(c) / accum(M), 0, 255) + 0.5)

NL-means is the one filter whose channels are not independent (the distance
sums over them), so a kernel thread makes every channel of its pixel. The
channel count is a run-time value, but a thread's accumulators must be a
constant number of registers: the channel dimension of the per-pixel stages is
the constant M = MAX_CHANNELS = 3 (FILTERS.md: C = 1 or 3; the tests also run
C = 2): accum's slots k >= C weigh 0, the weights' total sits in slot M (a
constant index, so a schedule can keep the slots in registers), the output's
channel loop runs to M under T.where(c < channels). The distance's channel loop
runs to the run-time `channels` instead: a T.where on a stage that a schedule
moves with compute_at is silently dropped (compute_at rebuilds the predicate
from the loop bounds; seen in the generated CUDA, which summed all M channels).
More than 3 channels are not supported (the runtime's callers give 1 or 3).

Every algorithm starts with the stage `padded`: the input as float, its clamp
border made explicit (R samples a side for Direct: padded(c, y + R, x + R) =
J(c, y, x)), so that the later stages read it at affine indices without
clamps. A schedule inlines it (reads from global memory) or computes a block's
tile plus halo of it in shared memory (a constant-size region: (M, tile + 2R)).
"""
from tvm.script import tirx as T

from .plane import Algorithm, clamp

MAX_CHANNELS = 3           # M: the channel slots of the per-pixel stages
SLOTS = MAX_CHANNELS + 1   # the weighted sums of each channel, then the weights' total
SLACK = 32                 # covered(): how far past the image the stages before the output reach


def _sample_or_one(padded, k, channels, yy, xx):
    """J(k) at padded (yy, xx) for k < C, 1 for the total's slot M, 0 for the unused slots."""
    return T.if_then_else(k < channels, padded[T.min(k, MAX_CHANNELS - 1), yy, xx],
                          T.if_then_else(k == MAX_CHANNELS, T.float32(1), T.float32(0)))


def bounded(extent):
    """An image side as the loops take it: min(extent, 2^30) (the runtime refuses
    a plane past 2^31 bytes), so that TVM's analysis of a tile staged per block
    can add the halo to it without overflowing int32 (TVM.md; gaussian.py does the same)."""
    return T.min(extent, 1 << 30)


def covered(extent):
    """The extent of every stage before the output: the image side and SLACK more,
    so that a schedule's tiles of up to SLACK + 1 outputs a side (rounded up past the
    image's edge) stay inside it: compute_at then puts no guard (`y < height`) on
    the per-pixel stages. With one, TVM's CompactBufferAllocation (even not
    strict) left the shared tile of `padded` at the whole image's size,
    (3, 2^30 + 6, 2^30 + 6), and FlattenBuffer failed on int32 overflow. The extra rows
    and columns compute values no output uses (the CPU check computes them too)."""
    return bounded(extent) + SLACK


def _square(value):
    return value * value


def _inverse_scale(channels, patch_size, h):
    """1 / (C * P * h^2), as the Halide generator's inverse_scale."""
    return T.float32(1) / (T.Cast("float32", channels) * T.float32(patch_size) * h * h)


def _rounded(u):
    """round_half_up(clamp(u, 0, 255)) as a byte."""
    return T.Cast("uint8", T.floor(T.min(T.max(u, T.float32(0)), T.float32(255)) + T.float32(0.5)))


class Direct(Algorithm):
    """Every offset of the window weighs its sample, as FILTERS.md writes it.
    Stages: `padded`, `distance` (a reduction over channels and the patch,
    per pixel and offset), `weight`, `accum` (a reduction over the offsets:
    the weighted sums and the total in its M + 1 slots), `output`."""
    contract = "direct"
    binding = "nlmeans_h"
    padded, distance, weight, accum, output = "padded", "distance", "weight", "accum", "output"

    def __init__(self, patch, search):
        p, s = patch, search
        Q, K, R, M = 2 * p + 1, 2 * search + 1, patch + search, MAX_CHANNELS
        self.patch_radius, self.search_radius = p, s

        @T.prim_func(s_tir=True)
        def nlmeans_direct(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                           width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                           out_row: T.int32, h: T.float32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
            padded = T.sblock_alloc_buffer((M, covered(height) + 2 * R, covered(width) + 2 * R), "float32")
            distance = T.sblock_alloc_buffer((covered(height), covered(width), K, K), "float32")
            weight = T.sblock_alloc_buffer((covered(height), covered(width), K, K), "float32")
            accum = T.sblock_alloc_buffer((SLOTS, covered(height), covered(width)), "float32")
            for c, y, x in T.grid(M, covered(height) + 2 * R, covered(width) + 2 * R):
                with T.sblock("padded"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    padded[vc, vy, vx] = T.Cast("float32", input[T.min(vc, channels - 1), clamp(vy - R, height),
                                                                 clamp(vx - R, width)])
            # The channel loop runs to `channels` (a run-time extent), not to M with a
            # T.where(c < channels): compute_at drops such a predicate (it rebuilds the
            # block's predicate from the loops' bounds) and the distance would sum M channels.
            for y, x, dy, dx, c, j, i in T.grid(covered(height), covered(width), K, K, channels, Q, Q):
                with T.sblock("distance"):
                    vy, vx, vdy, vdx, vc, vj, vi = T.axis.remap("SSSSRRR", [y, x, dy, dx, c, j, i])
                    # Declared rather than inferred: inferred, the two reads' union is a min/max,
                    # and the channel unbounded; a shared tile of `padded` would not compact.
                    T.reads(padded[T.min(vc, M - 1), vy + vj:vy + vj + K, vx + vi:vx + vi + K])
                    T.writes(distance[vy, vx, vdy, vdx])
                    with T.init():
                        distance[vy, vx, vdy, vdx] = T.float32(0)
                    # the pixel's patch at padded (y + s + j, x + s + i); the offset's at (+dy - s, +dx - s)
                    distance[vy, vx, vdy, vdx] += _square(padded[T.min(vc, M - 1), vy + s + vj, vx + s + vi]
                                                          - padded[T.min(vc, M - 1), vy + vdy + vj, vx + vdx + vi])
            for y, x, dy, dx in T.grid(covered(height), covered(width), K, K):
                with T.sblock("weight"):
                    vy, vx, vdy, vdx = T.axis.remap("SSSS", [y, x, dy, dx])
                    weight[vy, vx, vdy, vdx] = T.exp(-distance[vy, vx, vdy, vdx] * _inverse_scale(channels, Q * Q, h))
            for k, y, x, dy, dx in T.grid(SLOTS, covered(height), covered(width), K, K):
                with T.sblock("accum"):
                    vk, vy, vx, vdy, vdx = T.axis.remap("SSSRR", [k, y, x, dy, dx])
                    with T.init():
                        accum[vk, vy, vx] = T.float32(0)
                    accum[vk, vy, vx] += weight[vy, vx, vdy, vdx] * _sample_or_one(
                        padded, vk, channels, vy + vdy + p, vx + vdx + p)
            for c, y, x in T.grid(M, bounded(height), bounded(width)):
                with T.sblock("output"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    T.where(c < channels)
                    output[vc, vy, vx] = _rounded(accum[vc, vy, vx] / accum[M, vy, vx])

        super().__init__(nlmeans_direct, [("h", "float32")])


class Symmetric(Algorithm):
    """d^2(x; d) = d^2(x + d; -d): only the offsets of half the window,
    H = {dy > 0} or {dy = 0, dx > 0}, have weights, each used twice,
    w(x; d) J(x + d) for x and w(x - d; d) J(x - d) for x (the offset -d);
    the zero offset weighs 1 (accum's init). H is one reduction axis n of
    (K^2 - 1) / 2 offsets, n + s + 1 = K dy + (dx + s), so that no predicate
    selects it (compute_at drops predicates). Stages: `padded` (halo G = 2s + p:
    weights are needed s left, right and above the image, their patches reach
    s + p further), `distance` and `weight` per position and offset of H over
    the image and s around it (wy = y + s, wx = x + s), `accum`, `output`."""
    contract = "symmetric"
    binding = "nlmeans_h"
    padded, distance, weight, accum, output = "padded", "distance", "weight", "accum", "output"

    def __init__(self, patch, search):
        p, s = patch, search
        Q, K, G, M = 2 * p + 1, 2 * search + 1, patch + 2 * search, MAX_CHANNELS
        N = (K * K - 1) // 2
        self.patch_radius, self.search_radius = p, s

        def oy(n):  # dy of the n-th offset of H (0 .. s)
            return T.floordiv(n + s + 1, K)

        def ox(n):  # dx + s of the n-th offset of H (0 .. 2s)
            return T.floormod(n + s + 1, K)

        @T.prim_func(s_tir=True)
        def nlmeans_symmetric(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                              width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                              out_row: T.int32, h: T.float32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
            padded = T.sblock_alloc_buffer((M, covered(height) + 2 * G, covered(width) + 2 * G), "float32")
            distance = T.sblock_alloc_buffer((covered(height) + s, covered(width) + 2 * s, N), "float32")
            weight = T.sblock_alloc_buffer((covered(height) + s, covered(width) + 2 * s, N), "float32")
            accum = T.sblock_alloc_buffer((SLOTS, covered(height), covered(width)), "float32")
            for c, y, x in T.grid(M, covered(height) + 2 * G, covered(width) + 2 * G):
                with T.sblock("padded"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    padded[vc, vy, vx] = T.Cast("float32", input[T.min(vc, channels - 1), clamp(vy - G, height),
                                                                 clamp(vx - G, width)])
            for y, x, n, c, j, i in T.grid(covered(height) + s, covered(width) + 2 * s, N, channels, Q, Q):
                with T.sblock("distance"):
                    vy, vx, vn, vc, vj, vi = T.axis.remap("SSSRRR", [y, x, n, c, j, i])
                    T.reads(padded[T.min(vc, M - 1), vy + s + vj:vy + 2 * s + vj + 1, vx + vi:vx + 2 * s + vi + 1])
                    T.writes(distance[vy, vx, vn])
                    with T.init():
                        distance[vy, vx, vn] = T.float32(0)
                    # position (y, x) = (vy - s, vx - s): its patch at padded (vy + s + j, vx + s + i),
                    # the offset's at (+dy, +dx)
                    distance[vy, vx, vn] += _square(padded[T.min(vc, M - 1), vy + s + vj, vx + s + vi]
                                                    - padded[T.min(vc, M - 1), vy + s + vj + oy(vn), vx + vi + ox(vn)])
            for y, x, n in T.grid(covered(height) + s, covered(width) + 2 * s, N):
                with T.sblock("weight"):
                    vy, vx, vn = T.axis.remap("SSS", [y, x, n])
                    weight[vy, vx, vn] = T.exp(-distance[vy, vx, vn] * _inverse_scale(channels, Q * Q, h))
            for k, y, x, n in T.grid(SLOTS, covered(height), covered(width), N):
                with T.sblock("accum"):
                    vk, vy, vx, vn = T.axis.remap("SSSR", [k, y, x, n])
                    with T.init():
                        accum[vk, vy, vx] = _sample_or_one(padded, vk, channels, vy + G, vx + G)
                    accum[vk, vy, vx] += (
                        weight[vy + s, vx + s, vn] * _sample_or_one(padded, vk, channels, vy + G + oy(vn),
                                                                   vx + s + p + ox(vn))
                        + weight[vy + s - oy(vn), vx + 2 * s - ox(vn), vn]
                        * _sample_or_one(padded, vk, channels, vy + G - oy(vn), vx + 3 * s + p - ox(vn)))
            for c, y, x in T.grid(M, bounded(height), bounded(width)):
                with T.sblock("output"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    T.where(c < channels)
                    output[vc, vy, vx] = _rounded(accum[vc, vy, vx] / accum[M, vy, vx])

        super().__init__(nlmeans_symmetric, [("h", "float32")])
