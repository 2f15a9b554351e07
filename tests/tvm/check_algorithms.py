"""Runs each TVM algorithm, unscheduled, on this machine's CPU (TVM's llvm
target) and compares it with a NumPy model of ../shared/FILTERS.md: a check
of the algorithms alone (their CUDA schedules are checked on the GPU by
`filterlab check`, like every variant). The cases are tests/tvm/<filter>_cases.py,
each a list CASES of (name, run(image) -> output, model(image) -> output[,
shapes: its own instead of SHAPES]).

    PYTHONPATH=. .venv/bin/python tests/tvm/check_algorithms.py      (CTest: tvm_algorithms)

The algorithms are imported as generators.tvm (the source tree on the
import path, as the build and CTest set it), the cases from beside this file.
"""
import importlib
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

SHAPES = [(1, 1, 1), (1, 2, 2), (1, 7, 13), (3, 17, 5), (2, 31, 29)]


def main():
    rng = np.random.default_rng(7)
    failed = 0
    for path in sorted(HERE.glob("*_cases.py")):
        for name, run, model, *shapes in importlib.import_module(path.stem).CASES:
            for shape in shapes[0] if shapes else SHAPES:
                image = rng.integers(0, 256, shape, dtype=np.uint8)
                try:
                    got, want = run(image), model(image)
                    ok, why = np.array_equal(got, want), ""
                except ValueError as e:  # the filter refuses this size (maxpool below 2x2)
                    ok, why = True, f" (refused: {e})"
                failed += not ok
                print(f"{'ok  ' if ok else 'FAIL'} {name} {shape}{why}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
