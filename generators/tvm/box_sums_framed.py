"""The box filter's running sums at any image shape, as an interior without
clamps beside its clamped frame (FILTERS.md: box; box.RunningSums' sums).

box.RunningSums clamps every read (`sample`) and covers its stages' extents
rounded up to whole(...) tiles, since with symbolic sizes a shared tile
guarded by the image is mis-sized by TVM (box.py: WHOLE_ROWS). Here the cut
is the algorithm's, as box_framed's is (framed.py, its border the radius r),
and the shared tile is a buffer of each tile's own, of constant size. Two
stages, each its own kernel, that together write every output once:

    `tile`      the outputs whose (2r+1)^2 window never leaves the image,
                from row r and column r: as many whole strips of `strip` rows
                as fit in height - 2r, across as many whole runs of `run`
                columns as fit in width - 2r, a tile `columns` wide (a
                block's; the last tile across holds the rest of the runs).
                Its two inner blocks read the input at affine indices
                without a clamp: `columns`, each input column's sum of 2r+1
                rows slid down the strip (the entering row less the leaving
                one) into the tile's `column_sums`, and `runs`, each run's
                sum of 2r+1 of those slid along its row. The last tile's
                columns past the image, and its runs past the interior, are
                skipped by an `if` each, not clamped;
    `frame`     the rest, with the contract's clamps, as one list of runs of
                `run` outputs: first along the rows above and below the
                strips (r at the top, at least r below), whole rows cut into
                runs; then down the columns left and right of the interior
                (r at the left, at least r at the right), each column of the
                strips' rows cut into runs. A frame run sums each of its
                run + 2r lines across it once (`frame_sums`, a thread's
                array of uint16), then each output 2r+1 of them
                (`frame_outputs`): (run + 2r)(2r+1) / run loads an output,
                not (2r+1)^2, since at r = 15 the frame's direct windows
                would cost more than the interior. The whole image where no
                strip fits.

The running sums are uint32 as box.RunningSums' are (its docstring says why
they stay exact, and why its strip and run are the algorithm's, not a
schedule's). The tile's loops span at least one tile: where none fits that
one writes nothing, since CUDA refuses a grid of 0 blocks and the launcher
launches every kernel. Which tiles, columns and runs are the interior's is
an `if` in each inner block, not the tile's predicate (T.where): TVM places
the block's __syncthreads between its two inner blocks, and refuses to
place one inside a condition ("Cannot insert syncs inside condition").
"""
from tvm import tirx
from tvm.script import tirx as T

from .box_framed import byte, mean, run_sum
from .framed import band, tiles, whole
from .plane import Algorithm, clamp


def pixel(buffer, c, y, x):
    return T.Cast("uint32", buffer[c, y, x])


class RunningSumsFramed(Algorithm):
    """`tile`, a block's strip of the outputs whose window stays inside the image, its `columns` sums and
    its `runs` (no clamps), then `frame` (the rest, clamped), a thread's run each, its `frame_sums` and
    `frame_outputs`. strip x columns: a tile; run: the outputs a running sum walks along a row."""
    contract = "running_sums"
    tile, columns, runs = "tile", "columns", "runs"
    frame, frame_sums, frame_outputs = "frame", "frame_sums", "frame_outputs"

    def __init__(self, radius, strip=16, run=16, columns=512):
        if columns % run or strip % run:
            raise ValueError("box_sums_framed: a tile's columns and a strip's rows must be whole runs")
        self.radius, self.strip, self.run, self.tile_columns = radius, strip, run, columns
        super().__init__(sums_function(radius, strip, run, columns))


def sums_function(r, S, G, C):
    interior, frame = interior_tiles(r, S, G, C), frame_runs(r, S, G)

    @T.prim_func(s_tir=True)
    def box_sums_framed(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32, width: T.int32,
                        in_plane: T.int32, in_row: T.int32, out_plane: T.int32, out_row: T.int32):
        T.func_attr({"tirx.noalias": True})
        input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
        output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
        interior(input, output, channels, height, width)
        frame(input, output, channels, height, width)

    return box_sums_framed


def interior_tiles(r, S, G, C):
    """The `tile` stage (the module's docstring) as a TVMScript macro over the function's buffers and sizes."""
    k = 2 * r + 1
    n = k * k

    def read_column(vs, vb, vx, height, width):
        """Whether tile (vs, vb)'s column vx is one its runs read: the tile is the interior's (the grid has
        one where none fits) and the column inside the image (the last tile across holds fewer runs)."""
        inner = whole(width, G, r)
        return tirx.all(vs < tiles(height, S, r), 0 < inner, vb * C + vx < inner + 2 * r)

    def make_run(vs, vb, vg, height, width):
        """Whether tile (vs, vb)'s run vg is one of the interior's."""
        return tirx.all(vs < tiles(height, S, r), vb * C + vg * G < whole(width, G, r))

    @T.macro
    def interior(input, output, channels, height, width):
        for c, s, b in T.grid(channels, T.max(tiles(height, S, r), 1), T.max(T.ceildiv(whole(width, G, r), C), 1)):
            with T.sblock("tile"):
                vc, vs, vb = T.axis.remap("SSS", [c, s, b])
                # column_sums[t, x]: input column vb * C + x summed over rows vs * S + t .. + 2r.
                column_sums = T.sblock_alloc_buffer((S, C + 2 * r), "uint32")
                for x in range(C + 2 * r):
                    with T.sblock("columns"):
                        vx = T.axis.remap("S", [x])
                        total = T.sblock_alloc_buffer((1,), "uint32", scope="local")
                        if read_column(vs, vb, vx, height, width):
                            total[0] = 0
                            for j in range(k):  # the strip's first row: its whole window
                                total[0] += pixel(input, vc, vs * S + j, vb * C + vx)
                            column_sums[0, vx] = total[0]
                            for t in range(1, S):  # then the row entering, less the row leaving
                                total[0] += (pixel(input, vc, vs * S + t + 2 * r, vb * C + vx)
                                             - pixel(input, vc, vs * S + t - 1, vb * C + vx))
                                column_sums[t, vx] = total[0]
                for y, g in T.grid(S, C // G):
                    with T.sblock("runs"):
                        vy, vg = T.axis.remap("SS", [y, g])
                        total = T.sblock_alloc_buffer((1,), "uint32", scope="local")
                        if make_run(vs, vb, vg, height, width):
                            total[0] = n // 2  # the rounding, half up
                            for i in range(k):  # the run's first output: its whole window
                                total[0] += column_sums[vy, vg * G + i]
                            for u in range(G):
                                if u > 0:  # then the column entering, less the column leaving
                                    total[0] += column_sums[vy, vg * G + u + 2 * r] - column_sums[vy, vg * G + u - 1]
                                output[vc, r + vs * S + vy, r + vb * C + vg * G + u] = T.Cast("uint8", total[0] // n)

    return interior


def frame_runs(r, S, G):
    """The `frame` stage (the module's docstring) as a TVMScript macro over the function's buffers and sizes."""
    @T.macro
    def frame(input, output, channels, height, width):
        for c, m in T.grid(channels, frame_count(height, width, r, S, G)):
            with T.sblock("frame"):
                vc, vm = T.axis.remap("SS", [c, m])
                T.reads(input[vc, 0:height, 0:width])
                T.writes(output[vc, 0:height, 0:width])
                per_row: T.int32 = T.ceildiv(width, G)  # the runs a frame row
                row_runs: T.int32 = (height - whole(height, S, r)) * per_row  # those of the rows
                side: T.int32 = width - whole(width, G, r)  # the frame's columns in each strip row
                q: T.int32 = vm - row_runs  # < 0: a run along a frame row, else down a frame column
                y0: T.int32 = T.Select(q < 0, band(vm // per_row, whole(height, S, r), r), r + q // side * G)
                x0: T.int32 = T.Select(q < 0, vm % per_row * G, band(q % side, whole(width, G, r), r))
                # line_sums[i]: the 2r+1 samples across the run at its (i - r)-th place along it.
                line_sums = T.sblock_alloc_buffer((G + 2 * r,), "uint16", scope="local")
                for i in range(G + 2 * r):
                    with T.sblock("frame_sums"):
                        vi = T.axis.remap("S", [i])
                        line_sums[vi] = T.Cast("uint16", run_sum(lambda d: byte(
                            input, vc, clamp(y0 + T.Select(q < 0, d, vi - r), height),
                            clamp(x0 + T.Select(q < 0, vi - r, d), width)), r))
                for u in range(G):
                    with T.sblock("frame_outputs"):
                        vu = T.axis.remap("S", [u])
                        if x0 + T.Select(q < 0, vu, 0) < width:  # a row's last run, past the image
                            output[vc, y0 + T.Select(q < 0, 0, vu), x0 + T.Select(q < 0, vu, 0)] = mean(
                                run_sum(lambda d: T.Cast("int32", line_sums[vu + r + d]), r), r)

    return frame


def frame_count(height, width, r, S, G):
    """The frame's runs: ceil(width / G) a row above and below the strips, then the strips' rows by G
    in each of the frame's columns beside them."""
    return ((height - whole(height, S, r)) * T.ceildiv(width, G)
            + (width - whole(width, G, r)) * (whole(height, S, r) // G))
