"""The register cap through TVM's attribute (filterlab_build/cuda_source.py: with_register_cap) against
the rewrite of the generated text it replaced: for each schedule named, its CUDA C at caps 64, 168 and
255 both ways. usage (from the repository root):
PYTHONPATH=. .venv/bin/python reports/tvm/max_registers/same_as_rewrite.py box/direct ..."""
import re, glob, importlib, sys
from filterlab_build import tvm_registry, tvm_generate, cuda_source
for path in sorted(glob.glob("schedules/*/tvm_*.py")):
    importlib.import_module(path[:-3].replace("/", "."))
import tvm
from tvm import s_tir
def old_capped(text, cap):
    return re.sub(r"__launch_bounds__\((\d+)\)", lambda m: f"__maxnreg__({min(cap, 65536 // int(m[1]) // 8 * 8)})", text)
names = sys.argv[1:]
for s in tvm_registry.REGISTRY:
    key = f"{s.filter}/{s.name}"
    if key not in names: continue
    functions = {}
    for library, fixed in s.libraries():
        alg = s.build_algorithm(**fixed)
        sch = s_tir.Schedule(tvm.IRModule({"main": alg.func})); s.schedule(sch, alg)
        functions[library] = (sch.mod["main"], alg, [])
    base = cuda_source.cuda_file(functions, "x")
    bounds = sorted(set(re.findall(r"__launch_bounds__\((\d+)\)", base)))
    for cap in (64, 168, 255):
        new = cuda_source.cuda_file(functions, "x", cap)
        print(key, "threads", bounds, "cap", cap, "same" if new == old_capped(base, cap) else "DIFFERENT")
