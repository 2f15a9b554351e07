"""A TVM box schedule's generated CUDA, run on this machine's CPU: each
library's launcher and kernels compiled with g++ against an emulation of the
CUDA they use (emulate/shim.h: a block's threads as std::threads) and compared
with FILTERS.md's box on awkward shapes, and on the shape the schedule is
specialised for (its other kernel). The algorithm check (check_algorithms.py)
runs the unscheduled algorithm; this one checks what the schedule made of it
(tiles, guards, shared memory, vector stores), not the GPU's speed.

    PYTHONPATH=. .venv/bin/python tests/tvm/emulate_box_cuda.py box/running_sums_long [--specialised]

Each block runs its threads one block at a time, on the CPU: a large image takes minutes a library.
"""
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHAPES = [(1, 1, 1), (1, 2, 2), (1, 7, 13), (3, 17, 5), (2, 31, 29), (1, 300, 1031), (2, 257, 513)]


def emulated(cu):
    """The generated .cu as C++ on shim.h: its helpers, kernels and launchers, each launch a call of emu_launch."""
    src = cu.read_text()
    prelude = re.search(r"namespace \{\n// TVM's integer division.*?\}  // namespace\n", src, re.S).group(0)
    kernels = re.findall(r'^extern "C" __global__ void[^\n]*\{\n.*?^\}\n', src, re.S | re.M)
    launchers = "\n".join(re.findall(r'^(?:extern "C"|static) int filterlab_[^\n]*\{\n.*?^\}\n', src, re.S | re.M))
    launchers = re.sub(r"(\w+)<<<(.*?), call->stream>>>\(\n(.*?)\);\n", r"emu_launch(\2, [&] { \1(\3); });\n",
                       launchers, flags=re.S).replace("std::min", "min").replace("std::max", "max")
    kernels = "\n".join(kernels).replace("__shared__ alignas(64)", "alignas(64) static")
    return f'#include "{HERE / "emulate" / "shim.h"}"\n' + prelude + kernels + launchers


def parse_arguments(doc, what):
    """The emulators' command line: a schedule of `what`, and whether to run its specialised twins too."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("schedule", help=f"filter/name, a {what} schedule (filterlab_build.tvm_generate --schedule)")
    parser.add_argument("--specialised", action="store_true", help="also run each library at its specialised shape")
    parser.add_argument("--shapes", default="1920x1080", help="the shapes it is specialised for (FILTERLAB_SHAPES)")
    return parser.parse_args()


def generate(schedule, shapes, cu):
    """The schedule's generated CUDA for `shapes` (FILTERLAB_SHAPES' spelling) into cu; its text."""
    subprocess.run([sys.executable, "-m", "filterlab_build.tvm_generate", "--schedule", schedule,
                    "--shapes", shapes, "--out", cu], check=True)
    return cu.read_text()


def specialised_shapes(source, launcher, aligned_channels):
    """(channels, height, width) at which the launcher's specialised twins run: its exact shapes (named
    WxH) and, where it has the aligned class's, two images in the class (widths a multiple of 64)."""
    exact = [(1, int(h), int(w)) for w, h in re.findall(rf"static int {launcher}_(\d+)x(\d+)\(", source)]
    in_class = re.search(rf"static int {launcher}_aligned\(", source)
    return exact + ([(1, 61, 1088), (aligned_channels, 7, 64)] if in_class else [])


def main():
    args = parse_arguments(__doc__, "box")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        cu, cpp = Path(tmp) / "gen.cu", Path(tmp) / "emu.cpp"
        source = generate(args.schedule, args.shapes if args.specialised else "", cu)
        cpp.write_text(emulated(cu))
        for launcher in re.findall(r'^extern "C" int (filterlab_\w+)\(', source, re.M):
            radius = int(re.search(r"_radius(\d+)$", launcher).group(1))
            exe = Path(tmp) / launcher
            subprocess.run(["g++", "-std=c++20", "-O2", "-pthread", "-w", f"-DLAUNCHER={launcher}", "-include", cpp,
                            HERE / "emulate" / "box_main.cpp", "-o", exe], check=True)
            shapes = SHAPES + specialised_shapes(source, launcher, 2) * args.specialised
            for c, h, w in shapes:
                run = subprocess.run([exe, str(radius), str(c), str(h), str(w)], capture_output=True, text=True)
                print(run.stdout.strip().replace(str(exe), launcher), flush=True)
                failed += run.returncode != 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
