"""TVM schedules of the median filter (generators/tvm/median.py's algorithms).

Every algorithm makes a strip of tiles per evaluation of its `medians`
stage; every schedule gives a thread one strip: `medians` computed at the
thread's loop into "local" buffers (one point a thread, so registers), the
strip's outputs unrolled. Nothing is left at root (the launcher may not
allocate: filterlab_build/cuda_source.py). Loads and stores stay bytes: every output is
guarded (the outputs run to the exact width) and every load clamped; a staged
algorithm's stores are the store stage's (staged_strips), words where TVM can
prove the width whole words.
"""
from filterlab_build.tvm_registry import tvm_frozen, tvm_schedule
from generators.tvm import median
from schedules.tvm_helpers import bind_blocks, row_stores


def strip_threads(sch, alg, warps):
    """A strip a thread, blocks of 32 x `warps` threads (strips side by side
    in x, tile rows stacked in y), channels on blockIdx.z; the strip's
    medians computed at the thread into registers, its outputs unrolled.
    Returns the block's loop over strips (blockIdx.x)."""
    output = sch.get_sblock(alg.output)
    c, ty, ts, s, t, i = sch.get_loops(output)  # the algorithm's output runs over strips
    xb, xt = sch.split(ts, [None, 32])
    yb, yt = sch.split(ty, [None, warps])
    sch.reorder(c, yb, xb, yt, xt, s, t, i)
    bind_blocks(sch, c, yb, xb, yt, xt)
    for loop in (s, t, i):
        sch.unroll(loop)
    medians = sch.get_sblock(alg.medians)
    sch.compute_at(medians, xt)
    for b in range(len(sch.get(medians).writes)):
        sch.set_scope(medians, b, "local")
    return xb


def staged_strips(sch, alg, warps):
    """strip_threads for a staged algorithm (median.Tiled's `staged`): each
    strip's outputs written into the block's tile of staging in shared
    memory, then the tile stored a row at a time, consecutive threads on
    consecutive bytes (row_stores), the threads indexed as strip_threads'."""
    xb = strip_threads(sch, alg, warps)
    sch.set_scope(sch.get_sblock(alg.output), 0, "shared")
    store = sch.get_sblock(alg.store)
    sch.reverse_compute_at(store, xb)
    row_stores(sch, store, 32, warps=warps)


@tvm_schedule("median", median.Direct, args={"tile_x": 1, "tile_y": 1, "bits": 32},
              compiled={"size": list(median.SIZES)},
              frontier="the classic GPU tiling, one thread an output (Halide's cuda_tile)",
              why="one thread an output, 32x8 threads a block: its k columns sorted and merged in registers, "
                  "L1 serves the neighbours' loads")
def tile(sch, alg):
    strip_threads(sch, alg, warps=8)


@tvm_schedule("median", median.Direct, args={"tile_x": 4, "tile_y": 4, "bits": 16},
              compiled={"size": [3]},
              frontier="mirrors Halide's fastest CUDA median at 3x3, cuda_register_block",
              why="Halide's register_block (block=4, warps=8): a 4x4 block a thread, its 6x6 samples loaded once "
                  "and its 6x4 sorted columns made once (16-bit lanes), each shared by up to 3 outputs")
def register_block(sch, alg):
    strip_threads(sch, alg, warps=8)


@tvm_schedule("median", median.Separable, args={"tile_x": 2, "tile_y": 1, "bits": 16, "strip": 4},
              compiled={"size": [5]},
              frontier="mirrors Halide's fastest CUDA median at 5x5, cuda_sep_strip (r128)",
              why="Halide's sep_strip (tiles=4, warps=2): a strip of 4 tiles of 2x1 a thread, the strip's "
                  "8 + k - 1 sorted columns made once and shared by its tiles, 16-bit lanes")
def sep_strip(sch, alg):
    strip_threads(sch, alg, warps=2)


@tvm_schedule("median", median.Separable, args={"tile_x": 4, "tile_y": 1, "bits": 32},
              compiled={"size": [7]},
              frontier="mirrors Halide's fastest CUDA median at 7x7, cuda_sep_tile_4x1_u32 (r168)",
              why="Halide's sep_tile_4x1_u32 (warps=2): a 4x1 tile a thread, each column's 7 samples sorted "
                  "once for the 4 outputs and the rows they share sorted once, 32-bit samples")
def sep_tile(sch, alg):
    strip_threads(sch, alg, warps=2)


# TVM's own lever: what Halide's schedules cannot say (its 16-bit samples are
# one a register), the hand kernel's packing.
@tvm_schedule("median", median.Separable, args={"tile_x": 2, "tile_y": 1, "bits": 16, "pairs": "cuda"},
              compiled={"size": list(median.SIZES)},
              why="sep_strip on two tile rows at once, one a 16-bit lane of each 32-bit register (hw_row_pairs' "
                  "packing): every min or max is one __vminu2 / __vmaxu2 for two outputs, half sep_strip's "
                  "instructions and registers per output",
              axes="strip=2,[4],8 warps=1,[2],4,8", algorithm_axes=("strip",))
def sep_strip_pairs(sch, alg, point):
    strip_threads(sch, alg, warps=point["warps"])


@tvm_schedule("median", median.Direct, args={"bits": 16, "pairs": "cuda"},
              compiled={"size": [3]},
              why="register_block with the hand kernel's packing: two 4x4 blocks a thread, one above the other, "
                  "each a 16-bit lane of every 32-bit register: each min or max one __vminu2 / __vmaxu2 for two "
                  "outputs, half register_block's min and max instructions per output",
              axes="tile_x=1,2,[4] tile_y=2,[4],8 warps=2,4,[8]", algorithm_axes=("tile_x", "tile_y"))
def register_block_pairs(sch, alg, point):
    strip_threads(sch, alg, warps=point["warps"])


# The best points of the two sweeps above, on the H100.
tvm_frozen("median", "sep_strip_pairs_1warp", "sep_strip_pairs", "strip=4+warps=1",
           frontier="TVM's lever beyond Halide's at 5x5 and 7x7, the hand kernel's packed pairs: the best point of "
                    "sep_strip_pairs' sweep at 5x5 (near it at 7x7)",
           why="sep_strip_pairs with one warp a block (32 strips side by side): more, smaller blocks an SM, "
               "each block's strips sharing their rows' cache lines")
tvm_frozen("median", "register_block_pairs_2x4", "register_block_pairs", "tile_x=2+tile_y=4+warps=4",
           why="register_block_pairs with a 2 wide, 4 tall block a thread (two of them, one a 16-bit lane): fewer "
               "registers than 4x4, 4 warps a block")
tvm_frozen("median", "register_block_pairs_2x4_r96", "register_block_pairs",
           "tile_x=2+tile_y=4+warps=4+max_registers=96",
           frontier="TVM's lever beyond Halide's at 3x3, the packed pairs in a register block: the best point of "
                    "register_block_pairs' tiles and of their register caps",
           why="register_block_pairs_2x4 with each kernel capped at 96 registers (__maxnreg__) in place of TVM's "
               "__launch_bounds__: ptxas then keeps more of the block in registers")


# The lever of box.RunningSums' `staged` on TVM's best 3x3 median.
@tvm_schedule("median", median.Direct, args={"tile_x": 2, "tile_y": 4, "bits": 16, "pairs": "cuda", "staged": True},
              compiled={"size": [3]},
              why="register_block_pairs_2x4 (two 2x4 blocks a thread, 16-bit lanes, 4 warps) writing its outputs "
                  "into the block's 32 x 64 tile in shared memory, then the tile copied to the image a row at a time, "
                  "a byte a thread (a 32-bit word where the width is whole words) under the image's guard: a "
                  "warp's store is 32 consecutive bytes (128 in words), where each thread storing its own 16 bytes "
                  "leaves every other byte of two sectors to another store")
def register_block_pairs_staged(sch, alg):
    staged_strips(sch, alg, warps=4)


tvm_frozen("median", "register_block_pairs_staged_r96", "register_block_pairs_staged", "max_registers=96",
           frontier="register_block_pairs_2x4_r96's outputs stored a row at a time through shared memory: the "
                    "lever against its generic class's strided byte stores",
           why="register_block_pairs_staged with each kernel capped at 96 registers (__maxnreg__), as "
               "register_block_pairs_2x4_r96: its staged twin")
