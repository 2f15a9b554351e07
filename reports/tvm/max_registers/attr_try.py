"""Whether TVM 0.27's own register-cap attribute can replace FilterLab's rewrite of the generated
CUDA C (issue 55: "TVM's launch settings through TVM's own attributes where it has them").

libtvm_compiler.so names `tirx.max_registers` (its CUDA codegen writes `__maxnreg__(n)` for a kernel
that has it). This sets it on a scheduled PrimFunc of the frozen point gaussian/tvm_rows8_r128 (cap
128) and prints the launch qualifiers of the CUDA C that TVM then writes.

usage (from the repository root): PYTHONPATH=. .venv/bin/python reports/tvm/max_registers/attr_try.py"""
import glob
import importlib
import re

import tvm
from tvm import s_tir

from filterlab_build import cuda_source, tvm_registry

for path in sorted(glob.glob("schedules/*/tvm_*.py")):
    importlib.import_module(path[:-3].replace("/", "."))
s = next(s for s in tvm_registry.REGISTRY if s.filter == "gaussian" and s.name == "rows8_r128")
library, fixed = next(iter(s.libraries()))
alg = s.build_algorithm(**fixed)
sch = s_tir.Schedule(tvm.IRModule({"main": alg.func}))
s.schedule(sch, alg)
func = sch.mod["main"].with_attr("tirx.max_registers", 128)
text = cuda_source.cuda_file({library: (func, alg, [])}, "attr_try")
print(f"{s.filter}/tvm_{s.name} {s.point}")
print("launch qualifiers TVM wrote:", re.findall(r"__launch_bounds__\(\d+\)|__maxnreg__\(\d+\)", text))
