"""TVM schedules of 2x2 max pooling (generators/tvm/maxpool.py's algorithm)."""
from filterlab_build.tvm_registry import tvm_frozen, tvm_schedule
from generators.tvm import maxpool
from schedules.tvm_helpers import grid_stride, thread_tile


@tvm_schedule("maxpool", maxpool.Direct, frontier="the classic: one thread an output",
              why="one thread per output (32x8 threads): four byte loads, two maxima, one byte store")
def naive(sch, alg):
    thread_tile(sch, sch.get_sblock(alg.output), tile_y=8, tile_x=32, rows=1, vector=1)


@tvm_schedule("maxpool", maxpool.Direct, frontier="Halide's fastest CUDA max pool (cuda_vectorized) in TVM",
              why="Halide's cuda_vectorized: 4 adjacent outputs on 2 rows a thread (32x8 threads, 128x16 tile), "
                  "the 4 outputs one vectorised loop",
              axes="rows=1,[2],4 vector=1,2,[4] warps=4,[8]")
def vectorized(sch, alg, point):
    rows, vector = point["rows"], point["vector"]
    c, by, bx, ty, tx, yr, xv = thread_tile(sch, sch.get_sblock(alg.output), tile_y=point["warps"] * rows,
                                             tile_x=32 * vector, rows=rows, vector=vector)
    sch.unroll(yr)
    sch.vectorize(xv)


tvm_frozen("maxpool", "vectorized_4x4", "vectorized", "rows=4+vector=4+warps=8",
           frontier="the best point of vectorized's sweep",
           why="vectorized with 4 rows of 4 outputs a thread (128 x 32 outputs a block): each thread's loads in "
               "flight doubled")


@tvm_schedule("maxpool", maxpool.Direct, frontier="what TVM's autotuner finds, beside the schedules written by hand",
              why="MetaSchedule's choice, frozen (filterlab_build/tvm_metaschedule.py on the H100): its CUDA space for "
                  "pooling is this one point, the image one loop over 256 blocks of 1024 threads")
def metaschedule(sch, alg):
    # The tuner's best trace, replayed on every shape.
    grid_stride(sch, sch.get_sblock(alg.output))
