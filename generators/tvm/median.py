"""The median filter's algorithms in TVMScript (FILTERS.md: median).

    out(c, y, x) = the ((k^2+1)/2)-th smallest of I(c, y+j, x+i), |i|, |j| <= k/2

k in {3, 5, 7}, clamp border, exact. TVM has no sort either, so the median is
a min/max network, the networks of the Halide side (median_networks.py).

Both algorithms make outputs in tiles of tw x th, a strip of `strip` tiles
side by side per evaluation, in the same two stages:

    `medians` (c, ty, ts)        the strip's medians, one buffer per element
                                 ((s*th + t)*tw + i: tile s, row t, column i),
                                 computed from the input in one straight-line
                                 body (one network);
    `output` (c, ty, ts, s, t, i) output (ty*th + t, (ts*strip + s)*tw + i),
                                 if inside the image, its element.

What the outputs of a strip share lives inside `medians`' body as values of
its network, not as a stage of its own: a stage computed at a thread's loop
either fails to lower with symbolic sizes (CompactBufferAllocation: "Literal
value 2147483650 exceeds range of int32") or, bounded, gets a mis-sized
buffer (a TVM limitation, not this module's). A schedule computes `medians` at a thread's
loop: the region is one point, its buffers "local", i.e. registers.

Direct (`contract = "direct"`, median.h's Direct): each output's k columns
sorted, then the classic 3x3 selection, or for 5x5 and 7x7 the rows of the
column-sorted window sorted too and only the cells that can hold the median
selected. In a tile, the samples and the sorted columns that neighbouring
outputs share are made once (the network's nodes are hash-consed): a tile
of 4x4 at 3x3 is Halide's register_block.

Separable (`contract = "separable"`, Adams 2021, median.h's Separable): for
each column of the strip and its halo, its window sorted for each of the th
rows (the k - th + 1 rows the tile shares sorted once, the others merged
in); then per tile and rank the k - tw + 1 columns its outputs share sorted
once, each output's other columns merged in; then Direct's selection.

Samples are widened to `bits` (32: plain 32-bit min/max, no masking; 16:
what Halide's GPU schedules use), unsigned, in the networks.
"""
from tvm import tirx
from tvm.script import tirx as T
from tvm.script.ir_builder import IRBuilder

from . import median_networks as mn
from .plane import Algorithm, clamp, contract_range

# The contract's sizes (runtime/base/contract_ranges.h).
SIZES = contract_range("kMedianSizes")


# A staged algorithm's stages cover whole blocks of (tile rows, strips) past
# the image: a schedule's block that divides it has no partial block, and its
# tile of staging in shared memory a constant size (CUDA codegen refuses
# min(tile, image)).
STAGED_BLOCK = (4, 32)


def _check(size, bits):
    if size not in SIZES:
        raise ValueError(f"median: size {size} is not one of {', '.join(map(str, SIZES))}")
    if bits not in (16, 32):
        raise ValueError(f"median: bits {bits} is not 16 or 32")


def _dtype(bits):
    # Unsigned: with "int32" values (the index type) TVM's
    # CompactBufferAllocation analysed the bound chain of a large network
    # without end (minutes and gigabytes at a 7x7 4x1 tile, networks then
    # emitted as lets); uint32 and uint16 it leaves alone.
    return "uint32" if bits == 32 else "uint16"


def _tiles(extent, side):
    """How many tiles of `side` cover `extent` (a TIR expression)."""
    return extent if side == 1 else (extent + side - 1) // side


def direct_tile(net, sample, k, tw, th, columns):
    """Direct's medians of a tw x th tile, row by row: sample(j, d) is the
    input at (tile row j, tile column d), clamped; `columns` tile columns
    (a strip's) each get their sorted column per row, shared by the tiles."""
    r = k // 2
    sorted_columns = {}

    def column(t, d):  # tile column d's window of output row t, sorted
        if (t, d) not in sorted_columns:
            sorted_columns[t, d] = mn.sorted_list(net, [sample(t + j, d) for j in range(-r, r + 1)])
        return sorted_columns[t, d]

    results = []
    for s in range(columns // tw):
        for t in range(th):
            for i in range(tw):
                x = s * tw + i
                results.append(mn.median_of_sorted_columns(net, lambda d, q: column(t, x + d - r)[q], k))
    return results


def _sorted_columns_by_row(net, sample, k, th, d):
    """Column d's window sorted for each of the th rows of a tile: the
    k - th + 1 rows they share sorted once, each row's others merged in."""
    r = k // 2
    shared = mn.sorted_list(net, [sample(j, d) for j in range(th - 1 - r, r + 1)])
    out = []
    for t in range(th):
        others = [sample(j, d) for j in range(t - r, th - 1 - r)] + [sample(j, d) for j in range(r + 1, t + r + 1)]
        out.append(mn.merged(net, shared, mn.sorted_list(net, others)))
    return out


def separable_tile(net, sample, k, tw, th, columns):
    """Separable's medians of the tiles of a strip `columns` wide, tile by
    tile, row by row (Adams 2021; as median.h's Separable)."""
    r = k // 2
    by_column = {d: _sorted_columns_by_row(net, sample, k, th, d) for d in range(-r, columns + r)}
    results = []
    for s in range(columns // tw):
        for t in range(th):
            rows = [[None] * k for _ in range(tw)]
            for q in range(k):
                def cell(d):  # column d of tile s (from its first output's), rank q of row t
                    return by_column[s * tw + d][t][q]
                shared = mn.sorted_list(net, [cell(d) for d in range(tw - 1 - r, r + 1)])
                for i in range(tw):
                    others = [cell(d) for d in range(i - r, tw - 1 - r)] + [cell(d) for d in range(r + 1, i + r + 1)]
                    rows[i][q] = mn.merged(net, shared, mn.sorted_list(net, others))
            results += [mn.median_of_sorted_rows(net, rows[i], k) for i in range(tw)]
    return results


def store_output(layout, medians, output, c, ty, ts, s, t, i, height, width, guarded=True):
    """`output`'s body (layout: tw, th, strip, lanes): output
    (ty*lanes*th + t, (ts*strip + s)*tw + i), if inside the image (always
    where not `guarded`: a staging buffer of whole tiles), its
    element of the strip's medians (its lane t // th of it): a constant
    buffer and shift once a schedule unrolls s, t and i. The stage runs over
    strips, not pixels, so that it reads `medians` at the strip's own index:
    compute_at must prove that the producer makes what it reads ("The scope
    ... is not a stage pipeline" otherwise), which TVM could not for a
    pixel's y // th against (height + th - 1) // th tiles."""
    tw, th, strip, lanes = layout
    T.reads(*[b[c, ty, ts] for b in medians])
    y, x = ty * (lanes * th) + t, (ts * strip + s) * tw + i
    T.writes(output[c, y, x])
    e = (s * th + t % th) * tw + i
    value = medians[-1][c, ty, ts]
    for j in range(len(medians) - 2, -1, -1):
        value = tirx.if_then_else(e == j, medians[j][c, ty, ts], value)
    if lanes == 2:
        value = T.shift_right(value, T.Cast("uint32", (t // th) * 16))
    if not guarded:  # into staging (Tiled's `staged`), whole tiles past the image
        T.buffer_store(output, T.Cast("uint8", value), [c, y, x])
        return
    with T.If(tirx.all(y < height, x < width)):
        with T.Then():
            T.buffer_store(output, T.Cast("uint8", value), [c, y, x])


class Tiled(Algorithm):
    """The two stages above for the network `tile_medians` (direct_tile or
    separable_tile) at this size, tile, sample width and strip. With
    `pairs`, two tile rows at once, one a 16-bit lane of a 32-bit word (the
    hand kernel hw_row_pairs' packing): each min or max of the network is
    one packed instruction for two outputs; `pairs` names its
    median_networks.packed_op ("cuda", or "portable" for the CPU check),
    and the samples are 16-bit lanes whatever `bits` says.

    `staged`: `output` writes whole tiles to `staging` without a guard, and
    a stage `store` copies staging to the image, a pixel a block with its
    own loops and the guard (box.RunningSums' `staged`): a schedule can then
    keep a block's tiles of staging in shared memory and store them a row
    at a time, consecutive threads on consecutive bytes (words where the
    width is whole words), not each thread its tile's bytes, strided."""
    medians, output, store = "medians", "output", "store"

    def __init__(self, tile_medians, size, tile, bits, strip, pairs=None, staged=False):
        _check(size, bits)
        k, (tw, th), lanes = size, tile, 1 if pairs is None else 2
        n, dtype = strip * tw * th, "uint32" if pairs else _dtype(bits)
        op = mn.packed_op(pairs) if pairs else None
        self.size, self.tile, self.bits, self.strip, self.pairs = size, (tw, th), bits, strip, pairs
        rows, columns = lanes * th, strip * tw  # a strip's outputs
        def tile_rows(height):  # staged: whole blocks, the tile of staging a constant
            return _tiles(height, rows * STAGED_BLOCK[0]) * STAGED_BLOCK[0] if staged else _tiles(height, rows)

        def strips(width):
            return _tiles(width, columns * STAGED_BLOCK[1]) * STAGED_BLOCK[1] if staged else _tiles(width, columns)
        layout = (tw, th, strip, lanes)

        def strip_medians(input, medians, c, ty, ts, height, width):
            T.reads(input[c, 0:height, 0:width])
            T.writes(*[b[c, ty, ts] for b in medians])
            net = mn.Network()
            top, left = ty * (lanes * th), ts * (strip * tw)  # the strip's first output row and column
            samples = {}

            def load(y, x):
                return T.Cast(dtype, input[c, clamp(y, height), clamp(x, width)])

            def sample(j, d):  # input (top + j, left + d), clamped (its pair th rows below); one leaf each
                if (j, d) not in samples:
                    value = load(top + j, left + d)
                    if lanes == 2:
                        value = T.bitwise_or(value, T.shift_left(load(top + th + j, left + d), T.uint32(16)))
                    samples[j, d] = net.leaf(value)
                return samples[j, d]

            results = tile_medians(net, sample, k, tw, th, strip * tw)
            slot, count = net.slots(results)
            # Named as TVMScript names what a function assigns (the C's `scratch`).
            scratch = IRBuilder.name("scratch", T.sblock_alloc_buffer((count,), dtype, scope="local"))
            for e, value in enumerate(net.emit(results, scratch, slot, op)):
                T.buffer_store(medians[e], value, [c, ty, ts])

        @T.prim_func(s_tir=True)
        def median(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32, width: T.int32,
                   in_plane: T.int32, in_row: T.int32, out_plane: T.int32, out_row: T.int32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
            # One buffer per element: compute_at places a block only where every
            # dimension it writes is one of its block variables (a rank index as a
            # last dimension fails: "TensorRegion pattern match failed: 0").
            medians = [T.sblock_alloc_buffer((channels, tile_rows(height), strips(width)), dtype) for _ in range(n)]
            for c, ty, ts in T.grid(channels, tile_rows(height), strips(width)):
                with T.sblock("medians"):
                    vc, vty, vts = T.axis.remap("SSS", [c, ty, ts])
                    strip_medians(input, medians, vc, vty, vts, height, width)
            if staged:  # a Python bool: TVMScript builds only the branch taken
                staging = T.sblock_alloc_buffer((channels, tile_rows(height) * rows, strips(width) * columns), "uint8")
            for c, ty, ts, s, t, i in T.grid(channels, tile_rows(height), strips(width), strip, rows, tw):
                with T.sblock("output"):
                    vc, vty, vts, vs, vt, vi = T.axis.remap("SSSSSS", [c, ty, ts, s, t, i])
                    if staged:
                        store_output(layout, medians, staging, vc, vty, vts, vs, vt, vi, height, width, False)
                    else:
                        store_output(layout, medians, output, vc, vty, vts, vs, vt, vi, height, width)
            if staged:
                for c, y, x in T.grid(channels, tile_rows(height) * rows, strips(width) * columns):
                    with T.sblock("store"):
                        vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                        if vy < height and vx < width:
                            output[vc, vy, vx] = staging[vc, vy, vx]

        super().__init__(median)


class Direct(Tiled):
    """Each output's own window sorted (direct_tile); a tile shares its loads and sorted columns."""
    contract = "direct"

    def __init__(self, size, tile_x=1, tile_y=1, bits=32, strip=1, pairs=None, staged=False):
        super().__init__(direct_tile, size, (tile_x, tile_y), bits, strip, pairs, staged)


class Separable(Tiled):
    """Adams' tiles (separable_tile): what a tile's windows share sorted once."""
    contract = "separable"

    def __init__(self, size, tile_x=2, tile_y=2, bits=32, strip=1, pairs=None, staged=False):
        # Each side at most k, as median.h's (a wider tile shares nothing more).
        super().__init__(separable_tile, size, (min(tile_x, size), min(tile_y, size)), bits, strip, pairs, staged)
