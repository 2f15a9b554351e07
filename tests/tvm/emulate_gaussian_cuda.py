"""A TVM Gaussian schedule's generated CUDA, run on this machine's CPU: each
library's launcher and kernels compiled with g++ against the emulation of
emulate_box_cuda.py (emulate/shim.h) and compared with FILTERS.md's Gaussian
(a gaussian_maxpool schedule: its 2x2 max pool) on awkward shapes
(emulate/gaussian_main.cpp), each output stored exactly once
(emulate/counted_output.h: bytes and vectors through a cast pointer), and, with --specialised, on each shape it is
compiled for and the aligned class. Each kernel's clamps (min, max) and
guards (if) are counted first, for the reader: a pooling's own maxes are 3
an output. It checks what the schedule made of the
algorithm (tiles, guards, the kernels' split of the image), not the GPU's
speed.

    PYTHONPATH=. .venv/bin/python tests/tvm/emulate_gaussian_cuda.py gaussian/rows8_interior [--specialised]
    PYTHONPATH=. .venv/bin/python tests/tvm/emulate_gaussian_cuda.py gaussian_maxpool/fused_interior
"""
import re
import subprocess
import sys
import tempfile

from emulate_box_cuda import SHAPES, compiled, emulation, parse_arguments, specialised_shapes
from gaussian_cases import contract_weights

# The box's shapes, shapes with one thread tile of 8 x 4 inside its frame and a few beside it, and RGB.
GAUSSIAN_SHAPES = SHAPES + [(1, 12, 8), (1, 13, 9), (1, 11, 40), (1, 40, 7), (2, 45, 70), (1, 4, 100), (1, 100, 4),
                            (3, 67, 301)]
# For the pooled: the same, and shapes with one thread tile of 4 x 2 pooled outputs inside its frame of 1
# (12 x 8, odd 13 x 9), a tile short of it, 1 pooled row or column, primes, one block's width and a bit more.
POOLED_SHAPES = GAUSSIAN_SHAPES + [(1, 11, 7), (1, 2, 97), (1, 97, 3), (2, 23, 131), (1, 36, 132), (1, 37, 137),
                                   (1, 3, 3), (1, 5, 5)]


def main():
    args = parse_arguments(__doc__, "Gaussian")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        source, cpp = emulation(args, tmp)
        pool = 2 if args.schedule.startswith("gaussian_maxpool/") else 1
        for launcher in re.findall(r'^extern "C" int (filterlab_\w+)\(', source, re.M):
            exe = compiled(tmp, cpp, launcher, "gaussian_main.cpp", f"-DPOOL={pool}")
            specialised = specialised_shapes(source, launcher, 3) * args.specialised
            for sigma in (1.0, 0.6):
                w = contract_weights(sigma)
                shapes = POOLED_SHAPES if pool == 2 else GAUSSIAN_SHAPES
                for c, h, wd in shapes + specialised:
                    run = subprocess.run([exe, str(w[2]), str(w[3]), str(w[4]), str(c), str(h), str(wd)],
                                         capture_output=True, text=True)
                    *details, summary = run.stdout.strip().replace(str(exe), launcher).splitlines() or [""]
                    print("\n".join([f"{summary} sigma={sigma}"] + details), flush=True)
                    failed += run.returncode != 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
