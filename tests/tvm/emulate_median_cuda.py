"""A TVM median schedule's generated CUDA, run on this machine's CPU: each
library's launcher and kernels compiled with g++ against the emulation of
emulate_box_cuda.py (emulate/shim.h, its packed __vminu2 / __vmaxu2 lane by
lane) and compared with FILTERS.md's median, the sorted window's middle
(emulate/median_main.cpp), on awkward shapes: 1x1, primes, odd sides, RGB, shapes
around one thread's 2x8 block and one thread block's 64 x 32 outputs, and,
with --specialised, on each shape it is compiled for and the aligned class.
Each output must be stored exactly once (emulate/counted_output.h: bytes and
vectors through a cast pointer). Each kernel's clamps (min, max), guards
(if) and output stores are counted first, for the reader. It checks what
the schedule made of the algorithm (tiles, guards, a staging tile in shared
memory, vector stores), not the GPU's speed.

    PYTHONPATH=. .venv/bin/python tests/tvm/emulate_median_cuda.py median/register_block_pairs_2x4_r96 [--specialised]
"""
import re
import sys
import tempfile

from emulate_box_cuda import SHAPES, compiled, emulation, parse_arguments, run_shapes, specialised_shapes

# The box's shapes (1x1, 1x2, primes, RGB), then one thread's packed block (2 wide, 2 x 4 tall) and a pixel
# more each way, one thread block's outputs (64 x 32) and a pixel short and more, a whole word short of the
# block (the last word partly outside), one row and one column, odd sides, and RGB at a prime width.
MEDIAN_SHAPES = SHAPES + [(1, 8, 2), (1, 9, 3), (1, 32, 64), (1, 31, 63), (1, 33, 65), (2, 32, 61), (1, 1, 131),
                          (1, 131, 1), (1, 3, 3), (1, 5, 7), (3, 67, 301), (3, 64, 128), (1, 97, 197)]


def main():
    args = parse_arguments(__doc__, "median")
    failed = runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        source, cpp = emulation(args, tmp)
        for launcher in re.findall(r'^extern "C" int (filterlab_\w+)\(', source, re.M):
            size = int(re.search(r"_size(\d+)$", launcher).group(1))
            exe = compiled(tmp, cpp, launcher, "median_main.cpp")
            shapes = MEDIAN_SHAPES + specialised_shapes(source, launcher, 3) * args.specialised
            failed += run_shapes(exe, launcher, size, shapes)
            runs += len(shapes)
    print(f"emulate_median_cuda: {args.schedule}: {runs - failed} of {runs} exact")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
