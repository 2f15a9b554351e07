"""The TVM side of the build: writes one schedule's CUDA C with its launchers (--schedule filter/name), as the
manifest's recipe of its archive says (filterlab_build.manifest, build/variants.json).

Schedules are registered in schedules/<filter>/tvm_<filter>.py (the registry:
tvm_registry, beside this module), algorithms live in generators/tvm/. Needs
the venv's pinned Apache TVM; neither the build's outputs nor the runtime need
it. Run as `python -m filterlab_build.tvm_generate` (the package's docstring).
"""
import argparse
import functools
import re
import sys
from pathlib import Path

from . import tvm_registry
from .schedule_grammar import GrammarError
from .shapes import ALIGNED, extents, read_shapes

ROOT = Path(__file__).resolve().parent.parent


def pitch(width):
    """A device row's pitch for `width` bytes: the harness pads rows to the aligned
    class's pitch (DeviceLayout::row_pitch, image_shape.h's kAlignedPitch)."""
    unit = aligned_class_numbers()[1]
    return (width + unit - 1) // unit * unit


def fixed_geometry(alg, height, width):
    """{parameter: value} of one image shape, its rows pitched as the harness
    pitches them; an algorithm of a fixed shape (its at_shape) may also fix the planes'
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


@functools.cache  # read once a process: every shape's pitches ask for it
def aligned_class_numbers():
    """(kAlignedWidth, kAlignedPitch): the aligned class, as its one owner
    (runtime/base/image_shape.h) states it."""
    text = (ROOT / "runtime" / "base" / "image_shape.h").read_text()
    numbers = [re.search(rf"constexpr int {name} = (\d+);", text) for name in ("kAlignedWidth", "kAlignedPitch")]
    if not all(numbers):
        raise ValueError("tvm_generate: runtime/base/image_shape.h states no kAlignedWidth and kAlignedPitch")
    return tuple(int(m[1]) for m in numbers)


def aligned_function(alg):
    """The algorithm's function for the aligned class: the width and the row
    pitches whole multiples of the class's numbers (width = 64 * width_q, the
    quotients new parameters), from which TVM's arithmetic proves whole
    groups of 64 pixels and the alignment of vector accesses. Returns the
    function, the C condition of a call in the class, and the launcher's
    locals for the quotients."""
    from tvm import tirx
    width_unit, pitch_unit = aligned_class_numbers()
    p = {v.name: v for v in alg.func.params}
    units = {"width": width_unit, "in_row": pitch_unit, "out_row": pitch_unit}
    quotients = {name: tirx.Var(f"{name}_q", "int32") for name in units}
    values = {p[name]: quotients[name] * unit for name, unit in units.items()}
    if alg.fixed_planes:  # planes rows x pitch, as the harness makes them
        out_height = p["height"] // alg.output_scale
        values.update({p["in_plane"]: values[p["in_row"]] * p["height"], p["out_plane"]: values[p["out_row"]] * out_height})
    f = alg.func.specialize(values)
    f = tirx.PrimFunc(list(f.params) + list(quotients.values()), f.body, f.ret_type, f.attrs)
    checks = [f"call->{name} % {unit} == 0" for name, unit in units.items()]
    checks += [f"call->{plane} % {pitch_unit} == 0" for plane in ("in_plane", "out_plane")]
    if alg.fixed_planes:
        checks += ["call->in_plane == call->in_row * call->height",
                   f"call->out_plane == call->out_row * (call->height / {alg.output_scale})"]
    locals_ = [(f"{name}_q", f"call->{name} / {unit}") for name, unit in units.items()]
    return f, " && ".join(checks), locals_


def shaped_algorithm(schedule, alg, height, width, fixed):
    """The algorithm a library compiles for one shape: its class's own form
    for the shape where it has one (at_shape), else the library's `alg`;
    called as `alg` is: one launcher serves both."""
    shaped = schedule.build_at_shape(height, width, **fixed)
    if shaped is None:
        return alg
    if (shaped.scalars, shaped.binding, shaped.output_scale) != (alg.scalars, alg.binding, alg.output_scale):
        raise ValueError(f"{schedule.filter}/{schedule.name}: its algorithm at a fixed shape is called otherwise "
                         "than at any shape (scalars, binding, output scale): one launcher serves both")
    return shaped


def generate(schedule, out, point="", shapes=()):
    import tvm
    from tvm import s_tir

    from . import cuda_source
    if point:  # a point of its sweep (the build names each by its stem)
        schedule = schedule.sweep_point(point)

    def scheduled(alg, func):
        sch = s_tir.Schedule(tvm.IRModule({"main": func}))
        schedule.schedule(sch, alg)
        return sch.mod["main"]

    functions = {}
    for library, fixed in schedule.libraries():
        alg = schedule.build_algorithm(**fixed)
        paths = []  # (suffix, scheduled function, C condition, launcher locals), the exact shapes first
        for shape in sorted(shapes, key=lambda s: s == ALIGNED):
            if shape == ALIGNED:
                f, condition, locals_ = aligned_function(alg)
                paths.append((ALIGNED, scheduled(alg, f), condition, locals_))
                continue
            h, w = extents(shape)
            shaped = shaped_algorithm(schedule, alg, h, w, fixed)
            paths.append((shape, scheduled(shaped, specialise(shaped, h, w)), shape_condition(shaped, h, w), []))
        functions[library] = (scheduled(alg, alg.func), alg, paths)
    origin = f"filterlab_build.tvm_generate --schedule {schedule.filter}/{schedule.name}" + (f" --point {point}" if point else "")
    # The register cap through TVM's own attribute (cuda_source.with_register_cap); its default, TVM's
    # own choice, writes none.
    cap = schedule.point.get(tvm_registry.LAUNCH["name"], tvm_registry.LAUNCH["default"])
    text = cuda_source.cuda_file(functions, origin, cap if cap != tvm_registry.LAUNCH["default"] else 0)
    if Path(out).exists() and Path(out).read_text() == text:
        return  # left as it is: the build's restat then compiles nothing again
    tmp = Path(str(out) + ".tmp")
    tmp.write_text(text)
    tmp.replace(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schedule", required=True, help="filter/name of the schedule to generate")
    parser.add_argument("--point", default="", help="the point of its space to generate (\"rows=4+vector=8\")")
    parser.add_argument("--out", type=Path, required=True, help="the .cu to write")
    parser.add_argument("--shapes", default="", help="FILTERLAB_SHAPES: the image shapes every library is also "
                        "compiled for (WIDTHxHEIGHT,...)")
    args = parser.parse_args()
    try:
        registry = tvm_registry.load_registry(ROOT)
        chosen = [s for s in registry if f"{s.filter}/{s.name}" == args.schedule]
        if not chosen:
            sys.exit(f"tvm_generate: no TVM schedule {args.schedule}")
        generate(chosen[0], args.out, args.point, read_shapes(args.shapes))
    except (ValueError, GrammarError) as e:  # a registration refused, a point outside its axes, a schedule TVM refuses
        sys.exit(f"tvm_generate: {e}")


if __name__ == "__main__":
    main()
