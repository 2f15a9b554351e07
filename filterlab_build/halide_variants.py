"""The variants and libraries of the Halide schedules this build builds, for the manifest (build/variants.json).

A schedule is one variant on each of its targets (<target>_<name>: cpu, cuda, opencl) and, swept, one per point
on its first target (<target>_<name>[a=1+b=2]). A variant has one library per compile-time value (median's
size); on CUDA each of them has a words twin (WRITES("words"): output_view=words) and, for every shape of
FILTERLAB_SHAPES, a shape twin of each (shape=WxH, shape=aligned), whose generator reports whether Halide took
the shape. Each library is its own archive, made by the filter's generator (add_halide_library,
cmake/Variants.cmake) with the recipe given here.
"""
from . import library_names as names
from .registrations import fixed_cxx, registration, supports_spec
from .schedule_grammar import launch_axis
from .shapes import shape_cxx

LAUNCH = launch_axis("halide")


def views(entry, target):
    """(the generator parameter of its input view, whether it has words twins, the binding's Views argument)."""
    twins = entry["writes"] == "words" and target == "cuda"
    argument = ""
    if entry["reads"] == "words" or twins:
        output = "words_where_whole" if twins else "bytes"
        argument = f", filterlab::Views{{filterlab::InputView::{entry['reads']}, filterlab::OutputView::{output}}}"
    return ("input_view=words" if entry["reads"] == "words" else ""), twins, argument


def library(entry, target, stem, fixed, twin, recipe):
    """One library (a compile-time value's, or its words or shape twin's) and its archive: its names, and the
    generator's parameters and targets that make it."""
    lib = names.halide_library(entry["filter"], target, stem, fixed, twin["words"], twin["shape"])
    params = list(recipe["params"]) + (["output_view=words"] if twin["words"] else [])
    params += [f"shape={twin['shape']}"] if twin["shape"] else []  # and shape_report=<its report> (cmake/Variants.cmake)
    report = lib["shape_report"]
    archive = {"target": lib["name"], "file": lib["file"], "package_target": lib["name"], "header": lib["header"],
               "recipe": recipe | {"function_name": lib["entry_point"], "params": params,
                                   "shape_report": report and report["header"]}}
    return {"name": lib["name"], "archive": lib["name"], "file": lib["file"], "header": lib["installed_header"],
            "entry_point": lib["entry_point"], "fixed": fixed, "output": "words" if twin["words"] else "bytes",
            "shape": twin["shape"] or None, "shape_report": report}, archive


def compiled_values(entry):
    """{param: value} of each library of a compile-time parameter (one, {}, without one)."""
    ct = entry["compile_time"]
    return [{ct["param"]: v} for v in ct["values"]] if ct else [{}]


def point_params(entry, point, fixed, input_view):
    """The generator parameters every library of one compile-time value shares."""
    schedule = entry["name"]
    if entry["origin"] == "autoscheduler":
        schedule = names.autoschedule_name(schedule, fixed)  # one frozen autoschedule per compile-time value
    params = [f"schedule={names.halide_schedule_key(entry['backend'], schedule)}"]
    params += [f"point={point['parameter']}"] if point["parameter"] else []
    params += [f"{p}={v}" for p, v in fixed.items()]
    return params + ([input_view] if input_view else [])


def libraries(entry, target, stem, point, options):
    """Every library of a variant, in the registration's order (a value's generic library and its words twin,
    then each shape's), and their archives."""
    input_view, words_twins, _ = views(entry, target)
    register_cap = next((v["value"] for v in point["values"] if v["axis"] == LAUNCH["name"]), LAUNCH["default"])
    out, archives = [], []
    for fixed in compiled_values(entry):
        recipe = {"generator": entry["filter"], "params": point_params(entry, point, fixed, input_view),
                  "targets": options["halide_targets"][target], "device_code": target == "cuda",
                  "register_cap": register_cap if target == "cuda" else None}
        for shape in [""] + (options["shapes"] if target == "cuda" else []):
            for words in [False, True] if words_twins else [False]:
                lib, archive = library(entry, target, stem, fixed, {"words": words, "shape": shape}, recipe)
                out.append(lib)
                archives.append(archive)
    return out, archives


def pipeline_cxx(group, shape=None):
    """One library and its words twin (nullptr without) as a CompiledPipeline's or a ShapeTwin's entry points,
    a ShapeTwin's with its shape first and their shape reports after."""
    points = [f"&{lib['entry_point']}" for lib in group] + (["nullptr"] if len(group) == 1 else [])
    if shape is None:
        return ", ".join(points)
    reports = [lib["shape_report"]["symbol"] for lib in group] + (["nullptr"] if len(group) == 1 else [])
    return f"{{{shape_cxx(shape)}, {', '.join(points)}, {', '.join(reports)}}}"


def registration_values(libs, archives, target, view_argument):
    """The values of cmake/halide_variant.cpp.in: the libraries' headers, one CompiledPipeline a compile-time
    value (its generic library, its shape twins), how the binding reads and writes the image."""
    includes = ""
    for lib, archive in zip(libs, archives):
        includes += f'#include "{lib["shape_report"]["header"]}"\n' if lib["shape_report"] else ""
        includes += f'#include "{archive["header"]}"\n'
    entries = ""
    for fixed in dict.fromkeys(tuple(lib["fixed"].items()) for lib in libs):
        group = [lib for lib in libs if tuple(lib["fixed"].items()) == fixed]
        shapes = list(dict.fromkeys(lib["shape"] for lib in group if lib["shape"]))
        generic = pipeline_cxx([lib for lib in group if not lib["shape"]])
        twins = ", ".join(pipeline_cxx([lib for lib in group if lib["shape"] == s], s) for s in shapes)
        entries += f"{{{fixed_cxx(dict(fixed))}, {generic}, {{{twins}}}}}, "
    return {"INCLUDES": includes, "ENTRIES": entries, "VIEW_ARGUMENT": view_argument, "VARIANT_BACKEND": target}


def variant(entry, target, point, origin, options):
    """One variant of a schedule on one target, at `point` (a sweep's, or the schedule's own)."""
    swept = origin == "sweep_point"
    stem = names.stem(entry["name"], point["tag"] if swept else "")
    libs, archives = libraries(entry, target, stem, point, options)
    v = {"variant": names.variant(target, entry["name"], point["text"] if swept else ""),
         "language": "halide", "filter": entry["filter"],
         "schedule": entry["name"], "backend": target, "origin": origin, "algorithm_key": entry["algorithm_key"],
         "supports": supports_spec(entry["supports"]), "axes": entry["axes"], "point": point, "source": entry["source"],
         "shapes": options["shapes"] if target == "cuda" else [], "libraries": libs, "archives": archives}
    values = registration_values(libs, archives, target, views(entry, target)[2])
    v["registration"] = registration(v, names.halide_library(entry["filter"], target, stem)["name"],
                                     f"{entry['filter']}_{target}", values)
    return v


def variants(entry, options):
    """The variants of one schedule this build builds: one a target, and its sweep's points on its first."""
    out = [variant(entry, target, entry["point"], entry["origin"], options) for target in entry["targets"]]
    return out + [variant(entry, entry["targets"][0], point, "sweep_point", options) for point in entry.get("sweep", [])]
