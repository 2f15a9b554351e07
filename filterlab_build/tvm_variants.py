"""The TVM schedules as the manifest lists them (build/variants.json), and the variants and libraries of those
this build builds.

A schedule (schedules/<filter>/tvm_<filter>.py, tvm_registry) is the CUDA variant tvm_<name> and, swept, one
variant a point, tvm_<name>[a=1+b=2]. A variant is one archive: its CUDA C written by tvm_generate (the recipe's
arguments) and compiled by nvcc, one launcher a library (a combination of compiled values), each holding a
function for every shape of FILTERLAB_SHAPES.
"""
import os

from . import library_names as names
from .registrations import fixed_cxx, registration
from .schedule_grammar import read_supports
from .shapes import shape_cxx


def schedule_entry(s, source_dir):
    """One TVM registration with the fields a Halide one has where they mean the same."""
    file, first, last = s.source
    where = f"{file}:{first}: tvm_{s.name}"
    return {"language": "tvm", "filter": s.filter, "name": s.name, "backend": "gpu", "targets": ["cuda"],
            "origin": s.origin, "algorithm": s.algorithm.__name__, "algorithm_key": s.algorithm.contract,
            "base": s.base or None, "why": s.why, "frontier": s.frontier or None,
            "supports": read_supports(s.supports_text(), where) if s.supports_text() else [],
            "compiled": {param: list(values) for param, values in s.compiled.items()},
            "axes": s.axes if s.origin == "schedule" else [], "point": s.point_forms(),
            "source": {"file": os.path.relpath(file, source_dir), "first_line": first, "last_line": last},
            "variants": [names.variant(names.TVM_TARGET, s.name)]}


def variant(s, entry, options):
    """One variant of a schedule: `s` at the schedule's own point or at a point of its sweep."""
    swept = s.origin == "sweep_point"
    archive = names.tvm_archive(s.filter, s.stem())
    libs = [{"name": name, "archive": archive["target"], "file": archive["file"], "header": names.TVM_HEADER,
             "entry_point": names.tvm_launcher(name), "fixed": fixed, "output": "bytes", "shape": None,
             "shape_report": None} for name, fixed in s.libraries()]
    arguments = ["--schedule", f"{s.filter}/{s.name}"] + (["--point", s.point_text()] if swept else [])
    recipe = {"tvm_generate": arguments + ["--shapes=" + ",".join(options["shapes"])], "source": archive["source"]}
    v = {"variant": names.variant(names.TVM_TARGET, s.name, s.point_text() if swept else ""), "language": "tvm",
         "filter": s.filter, "schedule": s.name, "backend": "cuda", "origin": s.origin,
         "algorithm_key": entry["algorithm_key"], "supports": s.supports_text(), "axes": entry["axes"],
         "point": s.point_forms(), "source": entry["source"], "shapes": options["shapes"], "libraries": libs,
         "archives": [{k: archive[k] for k in ("target", "file", "package_target")} | {"header": None, "recipe": recipe}]}
    values = {"DECLARATIONS": "".join(f"int {lib['entry_point']}(const filterlab_tvm_call *);\n" for lib in libs),
              "ENTRIES": "".join(f"{{{fixed_cxx(lib['fixed'])}, &{lib['entry_point']}}}, " for lib in libs),
              "BINDING": s.algorithm.binding, "EXACT_SHAPES": ", ".join(map(shape_cxx, options["shapes"]))}
    v["registration"] = registration(v, archive["target"], f"{s.filter}_{names.TVM_TARGET}", values)
    return v


def variants(s, entry, options):
    """The variants of one schedule this build builds: its own, then its sweep's points."""
    return [variant(s, entry, options)] + [variant(s.sweep_point(p["text"]), entry, options)
                                           for p in entry.get("sweep", [])]

