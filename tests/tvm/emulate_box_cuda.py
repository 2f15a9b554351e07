"""A TVM box schedule's generated CUDA, run on this machine's CPU: each
library's launcher and kernels compiled with g++ against an emulation of the
CUDA they use (emulate/shim.h: a block's threads as std::threads) and compared
with FILTERS.md's box on awkward shapes (emulate/box_main.cpp), for each
radius on shapes around one thread tile of 8 x 4 inside a frame of the radius
(box_framed's cut, register_rows' block), and, with --specialised, on each
shape it is compiled for and the aligned class. Each output must also be
stored exactly once (emulate/counted_output.h: bytes and vectors through a
cast pointer), and each kernel's clamps (min, max) and guards (if) are
counted first, for the reader. The algorithm check
(check_algorithms.py) runs the unscheduled algorithm; this one checks what the
schedule made of it (tiles, guards, the kernels' split of the image, shared
memory, vector stores), not the GPU's speed.

    PYTHONPATH=. .venv/bin/python tests/tvm/emulate_box_cuda.py box/register_rows_interior [--specialised]

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


def framed_shapes(r, rows=8, lanes=4):
    """Shapes around a frame of r and tiles of rows x lanes inside it: one tile, one and a row and column
    more, a tile short each way, no inside at all (2r), an inside of one pixel, one block of 4 x 32 tiles
    and a bit more, primes, one row or column, and RGB; then the same columns for a frame a word wide at
    the left and right (box_framed's `staged` tiles start at a multiple of 4)."""
    y, x, w = 2 * r + rows, 2 * r + lanes, 2 * ((r + 3) // 4 * 4)
    return [(1, y, x), (1, y + 1, x + 1), (1, y - 1, 40), (1, 40, x - 1), (1, 2 * r, 100), (1, 100, 2 * r),
            (1, 2 * r + 1, 2 * r + 1), (1, 2 * r + 4 * rows, 2 * r + 32 * lanes),
            (2, 2 * r + 4 * rows + 1, 2 * r + 32 * lanes + 3), (2, 23, 131), (1, 97, 3), (1, 1, 97), (3, 67, 301),
            (1, y, w + lanes), (1, y + 1, w + lanes + 1), (1, y, w + lanes - 1), (1, y + 4 * rows, w + 32 * lanes),
            (2, y + 4 * rows - 1, w + 32 * lanes + 2), (1, 2 * y, w + 64 * lanes + 5)]


def stores_a_thread(body):
    """The output stores a kernel's thread executes (32-bit ones counted as words), its byte stores and
    word stores summed through the constant loops around each."""
    counts = {"byte": 0, "32-bit": 0}
    for kind, pattern in (("byte", r"\boutput_ptr\["), ("32-bit", r"\(uint\*\)\(output_ptr")):
        for m in re.finditer(pattern, body):
            depth, times = 0, 1  # walk back over the braces: each enclosing `for (... < N; ...) {` multiplies
            for opening in reversed(list(re.finditer(r"[{}]", body[:m.start()]))):
                depth += 1 if opening.group() == "}" else -1
                if depth < 0:
                    depth = 0
                    loop = re.search(r"for \(int \w+ = 0; \w+ < (\d+); \+\+\w+\) $", body[:opening.start()])
                    times *= int(loop.group(1)) if loop else 1
            counts[kind] += times
    return counts


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


def census(source):
    """Each kernel's name, its count of min( and max( calls and of ifs, its store instructions to the
    output as written (a loop's once) by width, and how many of them a thread executes, one line a kernel."""
    kernels = re.findall(r'^extern "C" __global__ void (?:__(?:launch_bounds|maxnreg)__\(\d+\) )?(\w+)\([^\n]*\{\n'
                         r'(.*?)^\}\n', source, re.S | re.M)
    counts = {"min": r"\bmin\(", "max": r"\bmax\(", "if": r"\bif \(", "byte store": r"\boutput_ptr\[",
              "32-bit store": r"\(uint\*\)\(output_ptr", "64-bit store": r"\(uint2\*\)\(output_ptr",
              "128-bit store": r"\(uint4\*\)\(output_ptr"}
    return "\n".join(name + ": " + ", ".join(f"{len(re.findall(p, body))} {what}" for what, p in counts.items())
                     + "; a thread executes " + ", ".join(f"{n} {k}" for k, n in stores_a_thread(body).items())
                     + " stores" for name, body in kernels)


def emulation(args, tmp):
    """The schedule's generated CUDA (with --specialised, also for args.shapes and the aligned class) as
    C++ on shim.h with the counted output pointer, written to tmp/emu.cpp; its census printed. Returns
    (the generated source, the .cpp)."""
    cu, cpp = Path(tmp) / "gen.cu", Path(tmp) / "emu.cpp"
    shapes = ",".join(([args.shapes] if args.specialised else []) + ["aligned"] * args.specialised)
    source = generate(args.schedule, shapes, cu)
    text = emulated(cu).replace("uchar* __restrict__ output_ptr", "counted_output output_ptr")
    cpp.write_text(f'#include "{HERE / "emulate" / "counted_output.h"}"\n' + text)
    print(census(source), flush=True)
    return source, cpp


def compiled(tmp, cpp, launcher, main, *defines):
    """The emulation's launcher `launcher` linked with emulate/<main>: the executable's path."""
    exe = Path(tmp) / launcher
    subprocess.run(["g++", "-std=c++20", "-O2", "-pthread", "-w", f"-DLAUNCHER={launcher}", *defines,
                    "-include", cpp, HERE / "emulate" / main, "-o", exe], check=True)
    return exe


def run_shapes(exe, launcher, first, shapes):
    """Runs the executable on each (channels, height, width) after the argument `first` (the radius, the
    median's size), printing each run's line; the number of runs that failed."""
    failed = 0
    for c, h, w in shapes:
        run = subprocess.run([exe, str(first), str(c), str(h), str(w)], capture_output=True, text=True)
        print(run.stdout.strip().replace(str(exe), launcher), flush=True)
        failed += run.returncode != 0
    return failed


def main():
    args = parse_arguments(__doc__, "box")
    failed = runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        source, cpp = emulation(args, tmp)
        for launcher in re.findall(r'^extern "C" int (filterlab_\w+)\(', source, re.M):
            radius = int(re.search(r"_radius(\d+)$", launcher).group(1))
            exe = compiled(tmp, cpp, launcher, "box_main.cpp")
            shapes = SHAPES + framed_shapes(radius) + specialised_shapes(source, launcher, 2) * args.specialised
            failed += run_shapes(exe, launcher, radius, shapes)
            runs += len(shapes)
    print(f"emulate_box_cuda: {args.schedule}: {runs - failed} of {runs} exact")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
