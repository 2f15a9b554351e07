"""What several TVM schedules share (the twin of schedule_helpers.h): the
thread blocks of an output, unrolled loops, an interior's tiles and its frame,
a staged tile's stores."""
from tvm import sym, tirx


def bind_grid(sch, c, by, bx):
    """Channels, a plane's rows and columns of blocks on blockIdx.z, y, x."""
    for loop, axis in ((c, "blockIdx.z"), (by, "blockIdx.y"), (bx, "blockIdx.x")):
        sch.bind(loop, axis)


def bind_blocks(sch, c, by, bx, ty, tx):
    """bind_grid, and a block's threads on threadIdx.y, x."""
    bind_grid(sch, c, by, bx)
    sch.bind(ty, "threadIdx.y")
    sch.bind(tx, "threadIdx.x")


def pixel_list_threads(sch, block, threads=256):
    """A block over (channel, pixel of a list), such as a frame's: the pixels `threads` a block, channels
    on blockIdx.y."""
    c, n = sch.get_loops(block)
    blocks, thread = sch.split(n, [None, threads])
    sch.bind(c, "blockIdx.y")
    sch.bind(blocks, "blockIdx.x")
    sch.bind(thread, "threadIdx.x")


def thread_tile(sch, block, tile_y, tile_x, rows, vector):
    """Blocks of tile_y x tile_x outputs a plane, each thread `rows` rows of
    `vector` adjacent outputs; channels on blockIdx.z. Returns the loops
    (c, by, bx, ty, tx, yr, xv)."""
    c, y, x = sch.get_loops(block)
    by, ty, yr = sch.split(y, [None, tile_y // rows, rows])
    bx, tx, xv = sch.split(x, [None, tile_x // vector, vector])
    sch.reorder(c, by, bx, ty, tx, yr, xv)
    bind_blocks(sch, c, by, bx, ty, tx)
    return c, by, bx, ty, tx, yr, xv


def unrolled(sch, block, levels):
    """The block's innermost `levels` loops unrolled: a thread's small arrays stay in registers."""
    for loop in sch.get_loops(block)[-levels:]:
        sch.unroll(loop)


def register_block(sch, alg, stages, rows, vector, warps=4, unroll=1):
    """Every stage of `stages` inlined into the output, each thread `rows` x
    `vector` outputs unrolled: nvcc then finds what neighbouring outputs share
    (an input row, a first pass), which TVM 0.27 does not stage per thread
    with symbolic image sizes (the ledger's TVM column says why). With
    unroll=0 the rows stay a loop, for nvcc to unroll or not. Swept spaces
    stop at 4 lanes: at 8, TVM 0.27 writes vector types nvcc refuses
    (make_longlong4 of 8 values, a uint2 from an int)."""
    for stage in stages:
        sch.compute_inline(sch.get_sblock(stage))
    out = sch.get_sblock(alg.output)
    *_, yr, xv = thread_tile(sch, out, tile_y=warps * rows, tile_x=32 * vector, rows=rows, vector=vector)
    if unroll:
        sch.unroll(yr)
    sch.vectorize(xv)  # a vector store where TVM can prove the row whole and aligned (a specialised shape)


def grid_stride(sch, block, blocks=256, threads=1024):
    """MetaSchedule's AutoBind for a block it does not tile: its loops fused
    into one, `blocks` x `threads` threads each striding over the rest."""
    fused = sch.fuse(*sch.get_loops(block), preserve_unit_iters=True)
    stride, b, t = sch.split(fused, factors=[None, blocks, threads], preserve_unit_iters=True)
    sch.reorder(b, t, stride)
    sch.bind(b, "blockIdx.x")
    sch.bind(t, "threadIdx.x")


def framed_tiles(sch, alg, warps=4, frame_threads=256):
    """An algorithm cut into `tile` (its `interior` a thread's tile of
    outputs) and `frame` (gaussian_framed and its kin): the tiles a thread
    each, `warps` x 32 threads a block, a tile's outputs unrolled, one `if` a
    thread (the tiles' predicate and the partial blocks' guards), its loads
    left for nvcc to share; the frame's outputs `frame_threads` a block. Not
    vectorised: the interior starts past the frame, off any alignment TVM
    could prove with symbolic pitches, and TVM writes a vector store without
    proving it."""
    c, ty, tx = sch.get_loops(sch.get_sblock(alg.tile))
    by, ty = sch.split(ty, [None, warps])
    bx, tx = sch.split(tx, [None, 32])
    sch.reorder(c, by, bx, ty, tx)
    bind_blocks(sch, c, by, bx, ty, tx)
    unrolled(sch, sch.get_sblock(alg.interior), 2)  # the tile's rows and lanes
    pixel_list_threads(sch, sch.get_sblock(alg.frame), frame_threads)


# The bytes a thread stores at once from the staging tile where the image's
# width is provably whole words: the guard (x < width) then holds for the
# word or for none of it, and TVM vectorises the copy (32-bit stores).
WORD = 4


def row_stores(sch, store, threads, warps=1):
    """The store stage's tile, rows of it fused, to threads in order: a warp
    stores a row's consecutive bytes (words where the width allows: the
    stage's algorithm starts its columns at a whole word of the image). With
    `warps` > 1, the threads are `warps` on threadIdx.y by `threads` on
    threadIdx.x, for a kernel whose other stages bind both."""
    row = sch.fuse(*sch.get_loops(store)[-2:])
    width = sch.get(store).writes[0].source.shape[-1]
    words = sym.Analyzer().can_prove(tirx.floormod(width, WORD) == 0)  # else a word could straddle the edge
    loops = sch.split(row, [None] + [warps] * (warps > 1) + [threads] + [WORD] * words)
    if words:
        sch.vectorize(loops.pop())
    if warps > 1:
        sch.bind(loops[-2], "threadIdx.y")
    sch.bind(loops[-1], "threadIdx.x")
