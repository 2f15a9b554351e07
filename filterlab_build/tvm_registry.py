"""TVM schedules: each one registration, the twin of FILTERLAB_SCHEDULE for
Halide (generators/schedule_registry.h). A schedule is written for one algorithm of
generators/tvm/<filter>.py and receives it built,

    @tvm_schedule("box", box.Separable, compiled={"radius": range(1, 16)},
                  why="...", frontier="...")
    def rows_shared(sch, alg):          # an s_tir.Schedule, a box.Separable
        rows = sch.get_sblock(alg.rows)
        ...

and is built as the CUDA variant tvm_<name> (tvm_generate): one
library per combination of its compiled values, which the runtime picks by
the call's parameters. An algorithm is shaped one way: its constructor's
keyword arguments, which come from the registration's `args` (what the
schedule fixes: median.Direct's tile_x=4, tile_y=4, bits=16), the library's
`compiled` values (Separable(radius=3)) and the point's `algorithm_axes`
(below), merged in that order. `supports` narrows a run-time parameter
further (the contract's syntax, "sigma=0.5..3"). Every library is also
compiled for each image shape the build names (FILTERLAB_SHAPES,
tvm_generate --shapes), which its launcher takes when a call has that shape
(TVM's native mode: with every extent known it drops guards and
vectorises); where the algorithm's class has a form of its own for a
fixed shape (its `at_shape`, generators/tvm/plane.py: an interior without
clamps beside its border), those compilations build that where it can be
built; `frontier` (why it
is built by default) puts it in the default build, as FRONTIER does a Halide
schedule's; the others are built with -DFILTERLAB_ALL_SCHEDULES=ON.

`axes` declares the schedule's space in AXES' grammar
(schedule_grammar: "rows=4,[8] vector=2,[4],8"); its body then
takes the point as a third argument ({axis: value}), and the axes named in
`algorithm_axes` are also given to the algorithm's constructor (a tile the
algorithm's loops are written for). Every TVM schedule also has the launch's
axis, schedule_grammar.LAUNCH_AXIS: each kernel's register cap. FILTERLAB_SWEEPS names
<filter>/tvm_<name> (every point of its axes) or
<filter>/tvm_<name>:max_registers (the cap alone, at its point; filterlab_build.sweeps
reads it for both languages), each point built as the variant
tvm_<name>[a=1+b=2] (sweep_point). tvm_frozen names a point.
"""
import importlib
import itertools
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import library_names
from .schedule_grammar import default_point, launch_axis, point_forms, read_axes, read_point

# The launch's axis as TVM has it (schedule_grammar.LAUNCH_AXIS): its default,
# 0, leaves TVM's __launch_bounds__(threads) as it is, and ptxas chooses.
LAUNCH = launch_axis("tvm")


@dataclass
class TvmSchedule:
    filter: str
    name: str
    algorithm: type
    body: object
    why: str
    compiled: dict = field(default_factory=dict)
    supports: str = ""
    frontier: str = ""
    source: tuple = ("", 0, 0)  # file, first line, last line of the body
    args: dict = field(default_factory=dict)  # the algorithm's constructor arguments the registration fixes
    axes: list = field(default_factory=list)  # [{"name", "values", "default"}] (schedule_grammar.read_axes)
    algorithm_axes: tuple = ()  # the axes the algorithm's constructor takes too
    point: dict = field(default_factory=dict)  # this variant's point: every axis, plus max_registers if set
    origin: str = "schedule"  # or "frozen_point" (tvm_frozen), "sweep_point"
    base: str = ""  # a frozen point's schedule

    def stem(self):
        """`name`, a sweep point's with its point's library tag (name__rows4_vector2): what its
        archive and libraries are named after (library_names)."""
        return library_names.stem(self.name, self.point_forms()["tag"] if self.origin == "sweep_point" else "")

    def libraries(self):
        """[(library name, {parameter: value})], one per combination of compiled values."""
        names = list(self.compiled)
        out = []
        for values in itertools.product(*(self.compiled[n] for n in names)):
            fixed = dict(zip(names, values))
            out.append((library_names.tvm_library(self.filter, self.stem(), fixed), fixed))
        return out

    def at(self, point_text):
        """This schedule at one point of its space or its register cap ("rows=4+max_registers=128")."""
        where = f"{self.source[0]}:{self.source[1]}: tvm_{self.name}"
        point = dict(self.point)
        for item in read_point(point_text, where):
            axis = next((a for a in self.axes if a["name"] == item["axis"]), None)
            if item["axis"] == LAUNCH["name"]:
                axis = LAUNCH
            if axis is None or item["value"] not in axis["values"]:
                raise ValueError(f"{where}: '{item['axis']}={item['value']}' is not a value of its axes")
            point[item["axis"]] = item["value"]
        return replace(self, point=point)

    def point_forms(self):
        """This variant's point in the forms schedule_grammar derives (its spelling "text", its library "tag")."""
        return point_forms([{"axis": a, "value": v} for a, v in self.point.items()])

    def point_text(self):
        return self.point_forms()["text"]

    def sweep_point(self, point_text):
        """The variant of this schedule's sweep at one point (named after it: stem)."""
        return replace(self.at(point_text), origin="sweep_point")

    def algorithm_arguments(self, fixed):
        """The algorithm's constructor arguments for the library of compiled values `fixed`: the
        registration's args, the compiled values, the point's algorithm axes, in that order."""
        return {**self.args, **fixed, **{a: self.point[a] for a in self.algorithm_axes}}

    def build_algorithm(self, **fixed):
        return self.algorithm(**self.algorithm_arguments(fixed))

    def build_at_shape(self, height, width, **fixed):
        """The algorithm's own form for one image shape (its class's at_shape), or None."""
        return self.algorithm.at_shape(height, width, **self.algorithm_arguments(fixed))

    def schedule(self, sch, alg):
        """Runs the body on `sch` at this point."""
        if self.axes:
            self.body(sch, alg, {a["name"]: self.point[a["name"]] for a in self.axes})
        else:
            self.body(sch, alg)

    def supports_text(self):
        parts = [f"{n}={','.join(str(v) for v in vs)}" for n, vs in self.compiled.items()]
        return ";".join(parts + ([self.supports] if self.supports else []))


REGISTRY = []


def load_registry(source_dir):
    """Every TVM registration: each schedules/<filter>/tvm_*.py of the source tree (the import root), found by
    its name and imported as a module of the schedules' package, registers its schedules in REGISTRY (in the
    files' order)."""
    for path in sorted((Path(source_dir) / "schedules").glob("*/tvm_*.py")):
        importlib.import_module(f"schedules.{path.parent.name}.{path.stem}")
    return REGISTRY


def tvm_schedule(filter, algorithm, *, why, args=None, compiled=None, supports="", frontier="", name=None, axes="",
                 algorithm_axes=()):
    def register(body):
        import inspect
        lines, first = inspect.getsourcelines(body)
        source = (inspect.getsourcefile(body), first, first + len(lines) - 1)
        where = f"{source[0]}:{first}"
        space = read_axes(axes, where) if axes else []
        if len(inspect.signature(body).parameters) != (3 if space else 2):
            raise ValueError(f"{where}: a schedule's body takes (sch, alg), and (sch, alg, point) with axes")
        if set(algorithm_axes) - {a["name"] for a in space}:
            raise ValueError(f"{where}: algorithm_axes names an axis the schedule does not declare")
        given_twice = set(args or {}) & (set(compiled or {}) | set(algorithm_axes))
        if given_twice:
            raise ValueError(f"{where}: args= names {sorted(given_twice)}, which compiled= or algorithm_axes= gives")
        try:  # every argument one the algorithm's constructor takes
            inspect.signature(algorithm).bind_partial(**(args or {}), **dict.fromkeys(compiled or {}),
                                                      **dict.fromkeys(algorithm_axes))
        except TypeError as e:
            raise ValueError(f"{where}: {algorithm.__name__} is not built so ({e})") from None
        point = {v["axis"]: v["value"] for v in default_point(space)["values"]} if space else {}
        REGISTRY.append(TvmSchedule(filter, name or body.__name__, algorithm, body, why, dict(compiled or {}),
                                    supports, frontier, source, dict(args or {}), space, tuple(algorithm_axes), point))
        return body
    return register


def tvm_frozen(filter, name, base, point, *, why, frontier=""):
    """A point of `base`'s space (or its register cap) as a schedule of its
    own, tvm_<name>: the twin of FILTERLAB_FROZEN. Placed after its base;
    `why`: what the point is (its base's why describes the default)."""
    of = next((s for s in REGISTRY if s.filter == filter and s.name == base and s.origin == "schedule"), None)
    if of is None:
        raise ValueError(f"tvm_frozen {name}: no TVM schedule {base} of {filter} registered before it")
    REGISTRY.append(replace(of.at(point), name=name, why=why, frontier=frontier, origin="frozen_point", base=base))
    return REGISTRY[-1]
