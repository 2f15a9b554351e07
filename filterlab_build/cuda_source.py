"""Scheduled TVM functions -> one CUDA C file that nvcc compiles ahead of time.

TVM's own build of a `cuda` target makes two halves: the device kernels
(CUDA C, which its codegen writes without a GPU or a driver) and a host
function that computes each kernel's grid and launches it through TVM's
runtime. FilterLab keeps the first and replaces the second: the host
function's launches are read back from TVM's lowered host IR and written out
as a plain C++ launcher per library,

    extern "C" int filterlab_<library>(const filterlab_tvm_call *call)

(runtime/languages/tvm_call.h; the name: library_names.tvm_launcher), so no TVM runtime is linked or loaded at run time.
A launcher returns cudaGetLastError() of its launches.
"""
import ast
import re

import tvm
from tvm.target import Target
from tvm.tirx.build import codegen_build, split_host_device_mods

from .library_names import tvm_launcher
from .shapes import ALIGNED

# What every launcher has in scope: the call's geometry (plane.py names the
# algorithm's parameters after these) and its two images.
GEOMETRY = ("channels", "height", "width", "in_plane", "in_row", "out_plane", "out_row")
# (An algorithm may read the image as 32-bit words: filterlab_image converts to either.)
POINTERS = {"input": "filterlab_image{const_cast<uint8_t *>(call->input)}", "output": "call->output"}
LAUNCH_SLOTS = ("blockIdx.x", "blockIdx.y", "blockIdx.z", "threadIdx.x", "threadIdx.y", "threadIdx.z")
DYNAMIC_SHARED = "tirx.use_dyn_shared_memory"


def cuda_target():
    return Target({"kind": "cuda", "arch": "sm_90"}, host="c")


def block_threads(kernel):
    """The threads of a block of `kernel` (a device PrimFunc): the product of its threadIdx extents."""
    extents = {}

    def visit(node):  # the statements' tree (TVM 0.27's tirx has no visitor to hand)
        if isinstance(node, tvm.tirx.AttrStmt) and node.attr_key == "thread_extent":
            tag = node.node.thread_tag
            if tag.startswith("threadIdx"):
                extents[tag] = int(node.value)
        for child in ("body", "then_case", "else_case"):
            if getattr(node, child, None) is not None:
                visit(getattr(node, child))
        for child in getattr(node, "seq", []):
            visit(child)
    visit(kernel.body)
    threads = 1
    for extent in extents.values():
        threads *= extent
    return threads


def with_register_cap(device, cap):
    """Each kernel of `device` with TVM's register-cap attribute (its codegen writes __maxnreg__(cap) in
    place of __launch_bounds__(threads)), the cap lowered to what a block of its threads may take (65536
    registers an SM, allocated to a thread in units of 8). Set on the kernels the host/device split
    made: an attribute of the scheduled function does not reach them."""
    def capped(kernel):
        return kernel.with_attr("tirx.max_registers", min(cap, 65536 // block_threads(kernel) // 8 * 8))
    return tvm.IRModule({gv: capped(f) for gv, f in device.functions.items()})


def lower(functions, cap=0):
    """{library: scheduled PrimFunc} -> (device CUDA C, {kernel: parameter names}, {library: host TVMScript});
    cap: each kernel's register cap (0: TVM's own __launch_bounds__(threads), left to ptxas)."""
    target = cuda_target()
    mod = tvm.IRModule({name: f.with_attr("global_symbol", name) for name, f in functions.items()})
    mod = tvm.tirx.transform.BindTarget(target)(mod)
    pipeline, _, finalize_device = tvm.tirx.get_default_tir_pipeline(target)
    host, devices = split_host_device_mods(pipeline(mod))
    (device_target, device), = devices.items()
    device = finalize_device()(device)
    if cap:
        device = with_register_cap(device, cap)
    source = codegen_build(device, device_target).inspect_source()
    kernels = {gv.name_hint: [p.name for p in f.params] for gv, f in device.functions.items()}
    hosts = {gv.name_hint: f.script() for gv, f in host.functions.items()}
    return source, kernels, hosts


class _Expr(ast.NodeVisitor):
    """A TVMScript integer expression (Python syntax) as C++."""

    BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.RShift: ">>", ast.LShift: "<<",
              ast.BitAnd: "&", ast.BitOr: "|"}

    def text(self, node):
        if isinstance(node, ast.BinOp):
            left, right = self.text(node.left), self.text(node.right)
            if isinstance(node.op, ast.FloorDiv):
                return f"filterlab_floordiv({left}, {right})"
            if isinstance(node.op, ast.Mod):
                return f"filterlab_floormod({left}, {right})"
            return f"({left} {self.BINARY[type(node.op)]} {right})"
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return repr(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return f"(-{self.text(node.operand)})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name, args = node.func.attr, node.args
            if name in ("max", "min"):
                return f"std::{name}({self.text(args[0])}, {self.text(args[1])})"
            if name in ("int32", "int64", "uint32") and len(args) == 1:
                return f"{name}_t({self.text(args[0])})"
            if name == "Cast":
                return f"{args[0].value}_t({self.text(args[1])})"
        raise ValueError(f"cuda_source: no C++ for the host expression {ast.unparse(node)}")


def _launches(host_script):
    """Each T.call_ffi_kernel of a host function: (kernel, argument nodes, {slot: extent node})."""
    launches = []
    for line in host_script.splitlines():
        line = line.strip()
        if "alloc" in line and "T." in line and "decl_buffer" not in line:
            raise ValueError("cuda_source: a schedule whose host code allocates (a stage at root in global "
                             "memory) is not supported; keep every stage inside the kernel: " + line)
        if not line.startswith("T.call_ffi_kernel("):
            continue
        call = ast.parse(line).body[0].value
        params = next(k.value for k in call.keywords if k.arg == "launch_params")
        slots = [ast.literal_eval(e) for e in params.elts]
        kernel = call.args[0].value
        arguments = call.args[1:len(call.args) - len(slots)]
        extents = dict(zip(slots, call.args[len(call.args) - len(slots):]))
        launches.append((kernel, arguments, extents))
    if not launches:
        raise ValueError("cuda_source: the host function launches no kernel")
    return launches


def _host_lets(host_script):
    """(name, C++ expression) of each int32 the host function binds in its compute scope, in order: TVM's
    common subexpressions of its launches' grids and arguments (a symbolic tile count, say), which the
    launcher computes as the host function would."""
    lets, inside = [], False
    for line in host_script.splitlines():
        line = line.strip()
        inside = inside or '"compute_scope"' in line
        m = re.fullmatch(r"(\w+): T\.let\[T\.int32\] = (.+)", line)
        if inside and m:
            lets.append((m[1], _Expr().text(ast.parse(m[2], mode="eval").body)))
    return lets


def _launch_text(kernel, arguments, extents, params):
    expr = _Expr()
    values = []
    for param, argument in zip(params, arguments):
        values.append(POINTERS[param[:-len("_ptr")]] if param.endswith("_ptr") else expr.text(argument))
    dims = [expr.text(extents[s]) if s in extents else "1" for s in LAUNCH_SLOTS]
    unknown = set(extents) - set(LAUNCH_SLOTS) - {DYNAMIC_SHARED}
    if unknown:
        raise ValueError(f"cuda_source: launch parameters {sorted(unknown)} are not supported")
    shared = expr.text(extents[DYNAMIC_SHARED]) if DYNAMIC_SHARED in extents else "0"
    return (f"    {kernel}<<<dim3({', '.join(dims[:3])}), dim3({', '.join(dims[3:])}), {shared}, call->stream>>>(\n"
            f"        {', '.join(values)});\n")


def launcher(library, host_script, kernels, scalars, specialised=(), locals_=()):
    """The C++ launcher of one library: its geometry and scalars, then its
    launches in order. `specialised`: (condition, launcher, barred) triples
    tried first, each a library compiled for one image shape or the aligned
    class (the call's own when the condition holds), unless the call bars
    that path (call->paths_barred >= barred). `locals_`: (name, C expression)
    of parameters a specialised function adds (the aligned class's quotients)."""
    lines = [f'extern "C" int {tvm_launcher(library)}(const filterlab_tvm_call *call) {{\n']
    lines += [f"    if (call->paths_barred < {barred} && {condition}) return {name}(call);\n"
              for condition, name, barred in specialised]
    lines += [f"    const int32_t {g} = call->{g};\n" for g in GEOMETRY]
    lines += [f"    const int32_t {name} = {value};\n" for name, value in locals_]
    counts = {"int32": 0, "float32": 0}
    for name, dtype in scalars:
        field = "ints" if dtype == "int32" else "floats"
        lines.append(f"    const {'int32_t' if dtype == 'int32' else 'float'} {name} = call->{field}[{counts[dtype]}];\n")
        counts[dtype] += 1
    lines += [f"    (void){g};\n" for g in GEOMETRY]
    lines += [f"    const int32_t {name} = {value};\n" for name, value in _host_lets(host_script)]
    for kernel, arguments, extents in _launches(host_script):
        lines.append(_launch_text(kernel, arguments, extents, kernels[kernel]))
    lines.append("    return static_cast<int>(cudaGetLastError());\n}\n")
    return "".join(lines)


PRELUDE = """#include <algorithm>
#include <cstdint>

#include "tvm_call.h"

namespace {
// TVM's integer division and modulo round toward negative infinity.
template <typename T> __host__ __device__ inline T filterlab_floordiv(T a, T b) {
    const T q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
template <typename T> __host__ __device__ inline T filterlab_floormod(T a, T b) { return a - filterlab_floordiv(a, b) * b; }
// The call's image as the kernel's parameter takes it: bytes, or 32-bit words.
struct filterlab_image {
    uint8_t *bytes;
    operator uint8_t *() const { return bytes; }
    operator uint32_t *() const { return reinterpret_cast<uint32_t *>(bytes); }
};
}  // namespace
"""


def cuda_file(functions, origin, cap=0):
    """The whole .cu of one schedule: {library: (scheduled PrimFunc, its
    algorithm, [(path suffix, PrimFunc scheduled for that shape or class, C
    condition, launcher locals)])}, the exact shapes' paths before the
    aligned class's (call->paths_barred: 1 bars the first, 2 both); cap: each kernel's register cap
    (lower)."""
    everything = {}
    for library, (f, _, shapes) in functions.items():
        everything[library] = f
        everything.update({f"{library}_{suffix}": g for suffix, g, _, _ in shapes})
    source, kernels, hosts = lower(everything, cap)

    def host_of(library):
        return next(text for name, text in hosts.items() if re.sub(r"^__tvm_ffi_", "", name) == library)
    parts = [f"// Generated by {origin} with Apache TVM {tvm.__version__}. Do not edit.\n", PRELUDE, source, "\n"]
    for library, (_, alg, shapes) in functions.items():
        specialised = []
        for suffix, _, condition, locals_ in shapes:
            name = f"{library}_{suffix}"
            text = launcher(name, host_of(name), kernels, alg.scalars, locals_=locals_)
            parts.append(text.replace('extern "C" int', "static int", 1))
            specialised.append((condition, tvm_launcher(name), 2 if suffix == ALIGNED else 1))
        parts.append(launcher(library, host_of(library), kernels, alg.scalars, specialised))
    return "".join(parts)
