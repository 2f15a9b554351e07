"""The one reader of FILTERLAB_SWEEPS, for both languages: which schedules' spaces the build builds point by point.

FILTERLAB_SWEEPS is "all" or a list (commas or semicolons) of names, each naming one schedule of either language
as its variant is named on its first target: <filter>/<target>_<schedule> (Halide: cpu_sliding, cuda_tile) or
<filter>/tvm_<schedule>. A name sweeps every point of the schedule's axes; <name>:max_registers sweeps the launch's
axis alone (schedule_grammar.LAUNCH_AXIS: the register cap, each value the language has), at the point of a GPU
schedule or frozen point. "all" sweeps the axes of every schedule that declares some and is not named otherwise.
A name that is not one of these stops the build with one line, "FILTERLAB_SWEEPS: <name>: <what>".
"""
import re
from dataclasses import dataclass

from .schedule_grammar import LAUNCH_AXIS, every_point, fail, point_forms


@dataclass
class Sweepable:
    """What FILTERLAB_SWEEPS needs of one registration of either language."""
    name: str  # <filter>/<target>_<schedule>: the name FILTERLAB_SWEEPS gives it
    origin: str  # "schedule", "frozen_point" or "autoscheduler"
    axes: list  # [{"name", "values", "default"}]: its space (schedule_grammar.read_axes)
    point: list  # [{"axis", "value"}]: the point it is built at
    launch: dict = None  # its language's launch axis (schedule_grammar.launch_axis), for a GPU schedule


def items_of(text):
    return [item for item in re.split(r"[,;]", text) if item]


def launch_points(s):
    """The schedule at its point once for each value of the launch's axis (the axis replaced where its point
    sets it: a frozen point's is the last of its point)."""
    fixed = [v for v in s.point if v["axis"] != s.launch["name"]]
    return [point_forms(fixed + [{"axis": s.launch["name"], "value": cap}]) for cap in s.launch["values"]]


def named_points(item, schedules):
    """The points of the one schedule `item` names."""
    name, colon, axis = item.partition(":")
    s = next((s for s in schedules if s.name == name and s.origin != "autoscheduler"), None)
    if s is None:
        fail("FILTERLAB_SWEEPS", f"{item}: no such schedule (<filter>/<target>_<schedule>, as cpu_tiled, "
                                 "cuda_tile, tvm_rows8)")
    if colon:
        if axis != LAUNCH_AXIS["name"] or s.launch is None:
            fail("FILTERLAB_SWEEPS", f"{item}: not <filter>/<cuda|tvm>_<schedule>:{LAUNCH_AXIS['name']} of a GPU "
                                     "schedule")
        return s, launch_points(s)
    if s.origin != "schedule":
        fail("FILTERLAB_SWEEPS", f"{item}: a frozen point sweeps its register cap alone ({name}:{LAUNCH_AXIS['name']})")
    if not s.axes:
        fail("FILTERLAB_SWEEPS", f"{item} declares no axes")
    return s, every_point(s.axes)


def read_sweeps(text, schedules):
    """{name: [point forms]} of the schedules (Sweepable) that FILTERLAB_SWEEPS `text` sweeps, one sweep each."""
    sweeps = {}
    items = items_of(text)
    for item in items:
        if item == "all":
            continue
        s, points = named_points(item, schedules)
        if s.name in sweeps:
            fail("FILTERLAB_SWEEPS", f"{item}: named twice (its axes, or :{LAUNCH_AXIS['name']}, not both)")
        sweeps[s.name] = points
    if "all" in items:
        for s in schedules:
            if s.origin == "schedule" and s.axes and s.name not in sweeps:
                sweeps[s.name] = every_point(s.axes)
    return sweeps
