#!/usr/bin/env python3
"""The TVM side of the build: lists the TVM schedules (--manifest) and
writes one schedule's CUDA C with its launchers (--schedule filter/name).

Schedules are registered in schedules/<filter>/tvm_<filter>.py
(schedules/tvm_registry.py), algorithms live in generators/tvm/. Needs the
venv's pinned Apache TVM; neither the build's outputs nor the runtime need it.
"""
import argparse
import importlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "generators" / "tvm"), str(ROOT / "schedules")]


def load_registry():
    import tvm_registry
    for path in sorted((ROOT / "schedules").glob("*/tvm_*.py")):
        sys.path.insert(0, str(path.parent))
        importlib.import_module(path.stem)
    return tvm_registry.REGISTRY


def manifest(registry):
    out = []
    for s in registry:
        file, first, last = s.source
        out.append({"filter": s.filter, "name": s.name, "variant": f"tvm_{s.name}", "why": s.why,
                    "algorithm": s.algorithm.contract, "binding": s.algorithm.binding,
                    "supports": s.supports_text(), "frontier": s.frontier,
                    "libraries": [{"name": n, "fixed": f} for n, f in s.libraries()],
                    "source": {"file": os.path.relpath(file, ROOT), "first_line": first, "last_line": last}})
    return out


def pitch(width):
    """A device row's pitch for `width` bytes: the harness pads rows to 64 bytes (DeviceLayout)."""
    return (width + 63) // 64 * 64


def fixed_geometry(alg, height, width):
    """{parameter: value} of one image shape, its rows pitched as the harness
    pitches them; a shaped algorithm (tvm_registry.py) also fixes the planes'
    strides, which the harness makes rows x pitch, so that its vector
    accesses are aligned in every plane."""
    out_h, out_w = height // alg.output_scale, width // alg.output_scale
    fixed = {"height": height, "width": width, "in_row": pitch(width), "out_row": pitch(out_w)}
    if alg.fixed_planes:
        fixed.update(in_plane=pitch(width) * height, out_plane=pitch(out_w) * out_h)
    return fixed


def specialise(alg, height, width):
    """The algorithm's function for one image shape: TVM then knows every
    extent, so it drops the guards of whole tiles and proves the alignment of
    vector accesses."""
    p = {v.name: v for v in alg.func.params}
    return alg.func.specialize({p[name]: value for name, value in fixed_geometry(alg, height, width).items()})


def shape_condition(alg, height, width):
    """When a call is the shape `specialise` compiled for (C++, on `call`)."""
    return " && ".join(f"call->{name} == {value}" for name, value in fixed_geometry(alg, height, width).items())


def generate(schedule, out):
    import tvm
    from tvm import s_tir

    import cuda_source
    def scheduled(alg, func):
        sch = s_tir.Schedule(tvm.IRModule({"main": func}))
        schedule.body(sch, alg)
        return sch.mod["main"]

    functions = {}
    for library, fixed in schedule.libraries():
        alg = schedule.algorithm(**fixed)
        shapes = []
        for h, w in schedule.specialised:
            shaped = schedule.shaped(h, w, **fixed) if schedule.shaped else alg
            if (shaped.scalars, shaped.binding, shaped.output_scale) != (alg.scalars, alg.binding, alg.output_scale):
                raise ValueError(f"{schedule.filter}/{schedule.name}: its shaped algorithm is called otherwise "
                                 "than its algorithm (scalars, binding, output scale): one launcher serves both")
            shapes.append((f"{h}x{w}", scheduled(shaped, specialise(shaped, h, w)), shape_condition(shaped, h, w)))
        functions[library] = (scheduled(alg, alg.func), alg, shapes)
    text = cuda_source.cuda_file(functions, f"scripts/tvm_generate.py --schedule {schedule.filter}/{schedule.name}")
    tmp = Path(str(out) + ".tmp")
    tmp.write_text(text)
    tmp.replace(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", type=Path, help="write the schedules' list as JSON here")
    parser.add_argument("--schedule", help="filter/name of the schedule to generate")
    parser.add_argument("--out", type=Path, help="the .cu to write (with --schedule)")
    args = parser.parse_args()
    registry = load_registry()
    if args.manifest:
        text = json.dumps(manifest(registry), indent=1)
        if not args.manifest.exists() or args.manifest.read_text() != text:
            args.manifest.write_text(text)
    if args.schedule:
        chosen = [s for s in registry if f"{s.filter}/{s.name}" == args.schedule]
        if not chosen or not args.out:
            sys.exit(f"tvm_generate: no TVM schedule {args.schedule} (or no --out)")
        generate(chosen[0], args.out)


if __name__ == "__main__":
    main()
