"""The resources of every CUDA kernel the build makes, as ptxas reports them.

Usage: python -m filterlab_build.kernel_resources OUT_JSON PTXAS ARCH --halide <lib>.device_code@CAP... --handwritten PTX...

Each PTX file (one per Halide CUDA library, Halide's DEVICE_CODE output; one
per handwritten .cu file, compiled to PTX) is assembled by ptxas for ARCH
(sm_90: the H100's, as its driver does with Halide's PTX at load time) with
-v; a Halide library's at the register cap CAP its module is loaded with
(-maxrregcount: Halide's runtime asks the driver for 64 unless the schedule's
point names max_registers), so that its registers and spills are those it runs
with; a handwritten kernel's as nvcc compiled it. Writes, per library (its file name) and per handwritten source
(<filter>/<file>.cu), each kernel's registers, shared memory, stack frame and
local-memory spill stores and loads. `filterlab report` shows them beside
the timings.
"""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

FUNCTION = re.compile(r"Function properties for (\S+)")
FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers")
SMEM = re.compile(r"(\d+) bytes smem")
ENTRY = re.compile(r"Compiling entry function '([^']+)'")


def resources(ptxas, arch, ptx, cap=None):
    capped = [f"-maxrregcount={cap}"] if cap else []
    done = subprocess.run([ptxas, f"-arch={arch}", "-v", *capped, ptx, "-o", os.devnull], capture_output=True,
                          text=True)
    if done.returncode:
        sys.exit(f"kernel_resources: ptxas failed on {ptx}:\n{done.stderr}")
    kernels, entries, current = {}, set(), None
    for line in done.stderr.splitlines():
        if m := ENTRY.search(line):
            entries.add(m.group(1))
        if m := FUNCTION.search(line):
            current = m.group(1)
            kernels.setdefault(current, {"kernel": current})
        elif current and (m := FRAME.search(line)):
            kernels[current].update(stack_bytes=int(m.group(1)), spill_store_bytes=int(m.group(2)),
                                    spill_load_bytes=int(m.group(3)))
        elif current and (m := USED.search(line)):
            kernels[current]["registers"] = int(m.group(1))
            s = SMEM.search(line)
            kernels[current]["shared_bytes"] = int(s.group(1)) if s else 0
    # Entry points only (device functions that were not inlined report too).
    return [k for name, k in sorted(kernels.items()) if name in entries and "registers" in k]


def main():
    out, ptxas, arch = sys.argv[1:4]
    groups = {"halide": [], "handwritten": []}
    group = None
    for arg in sys.argv[4:]:
        if arg in ("--halide", "--handwritten"):
            group = arg[2:]
        else:
            groups[group].append(arg)
    version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    result = {"format_version": 2, "ptxas": version, "arch": arch, "halide": {}, "handwritten": {}}
    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        for name, files in groups.items():
            found = pool.map(lambda f: (f, resources(ptxas, arch, *f.rsplit("@", 1))), files)
            for path, kernels in found:
                path = path.rsplit("@", 1)[0]
                if name == "halide":
                    key = os.path.basename(path).removesuffix(".device_code")
                else:  # .../<filter>/<file>.cu.ptx or <file>.ptx
                    key = "/".join(path.split(os.sep)[-2:]).removesuffix(".ptx")
                    key = key if key.endswith(".cu") else key + ".cu"
                result[name][key] = kernels
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f, indent=1)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
