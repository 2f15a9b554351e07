"""The one reader of the Halide schedule registrations (generators/schedule_registry.h).

Reads every FILTERLAB_SCHEDULE and FILTERLAB_FROZEN call of the schedule sources given, and the frozen
autoschedules (schedules/<filter>/auto/*.schedule.h), into one entry per schedule: its filter, algorithm,
backend and targets, name, why it is CUDA only, why it is on the frontier, what it restricts, axes, the point it
is built at and source span. The manifest (filterlab_build.manifest, build/variants.json) lists them beside the
TVM schedules, decides which are built and swept, and derives every variant and library from them; nothing else
reads the registrations. The tokens, the calls' arguments, SUPPORTS, AXES and points are read by
schedule_grammar, beside it in this package.

A registration is one macro call, laid out as one likes (spaces and line
breaks anywhere between its tokens; comments are not read):

    FILTERLAB_SCHEDULE(<filter>, <Algorithm>, cpu|gpu, <name>[, SUPPORTS("<spec>")][, AXES("<axes>")]
                       [, READS("words")][, WRITES("words")][, CUDA_ONLY("<why>")][, FRONTIER("<why>")]) { <body> }
    FILTERLAB_FROZEN(<filter>, cpu|gpu, <name>, <base>, "<axis>=<value>+<axis>=<value>..."[, FRONTIER("<why>")]);

The keywords come in any order, each at most once. <Algorithm> is the type of generators/<filter>.h the body
schedules ([A-Z][A-Za-z0-9]*, as RunningSums); the manifest's "algorithm" (a frozen point: its base's; an
autoschedule: null, the filter's default) and "algorithm_key", the name the runtime knows it by
(FilterInfo::algorithms: the type's name in snake_case, running_sums). SUPPORTS is what the schedule restricts
of the contract ("radius=1", "size=3,5", "radius=1..7", several joined by ';'); without it the schedule takes
the contract's whole domain. AXES declares its space ("tile_x=16,[32],64 tile_y=2,[8]": values, the default in
brackets). READS says how the pipeline reads its 8-bit image: "bytes" (the default) or "words", a view of the
same rows as 32-bit words (4 pixels each), so that Halide can load 16 bytes at once (../shared/HALIDE_GPU.md);
the build passes it to the generator (input_view=words) and to the variant's binding. WRITES("words") gives a
gpu schedule's CUDA variant a second library per compile-time value, its output written as 32-bit words
(output_view=words: Halide stores a uint8 vector 8 bytes at a time at most, a uint32 one 16), which the
binding takes for outputs whose width is a multiple of 4 with rows on 16-byte boundaries, the bytes library
otherwise ("writes").
CUDA_ONLY says why OpenCL cannot have a gpu schedule, or names a reason of
schedule_grammar.OPENCL_REFUSALS that several share (its targets are then
["cuda"], its frozen points' too; the CTest opencl_refusals asks Halide again);
a cpu schedule has nothing to refuse. FRONTIER says why a schedule (or a
frozen point) is built by default: without FILTERLAB_ALL_SCHEDULES (the
option --all-schedules) the build builds the FRONTIER schedules and frozen
points, every autoschedule but those schedules/<filter>/auto/off_frontier.txt
names, and the schedules FILTERLAB_SWEEPS names (the manifest's "built").

A frozen point fixes some axes of its base (the rest keep their defaults) in
the one spelling of a point, "tile_x=64+tile_y=4" (schedule_grammar.read_point;
runtime/base/schedule_point.h reads it in C++). Each point in the manifest is
{"values": [{"axis", "value"}], "text": "a=1+b=2", "parameter": "a:1+b:2",
"tag": "a1_b2"}: the spelling, the generator parameter (Halide's command line
takes no '=' in a value) and the library tag, derived from it. A gpu
schedule's frozen point may also set the launch's axis, the CUDA register cap
(schedule_grammar.LAUNCH_AXIS, Halide's values of it, "max_registers=128"; CUDA only then), and
FILTERLAB_SWEEPS may sweep it alone at a schedule's or frozen point's point
(<filter>/cuda_<name>:max_registers, filterlab_build.sweeps).

A source is schedules/<filter>/<file> (its filter is its folder's name); one
ending .schedule.h is a frozen autoschedule, <cpu|cuda>_<scheduler>[_<param><value>].schedule.h.
An ill-formed registration raises GrammarError, "<file>:<line>: <what>".
"""
import os
import re

from .schedule_grammar import (KEYWORDS, LAUNCH_ONLY, MACROS, NAME, OPENCL_REFUSALS, RETIRED, VIEWS, algorithm_key,
                               algorithm_type, body_end, default_point, fail, identifier, launch_axis, point_forms,
                               read_axes, read_call, read_point, read_supports, tokens_of)

LAUNCH = launch_axis("halide")  # the launch's axis of a Halide gpu schedule
GPU_TARGETS = ["cuda", "opencl"]  # a GPU schedule's gpu_* directives: every GPU API takes them
HEAD = "<filter>, <Algorithm>, cpu|gpu, <name>"
OPTIONAL = "[, SUPPORTS(\"...\")][, AXES(\"...\")][, READS(\"...\")][, WRITES(\"...\")][, CUDA_ONLY(\"...\")][, FRONTIER(\"...\")]"


def keywords_of(call, allowed, where):
    """{keyword: its string} of a call's KEYWORD("...") arguments: each one `allowed`, at most once, a why not empty."""
    given = {}
    for _, keyword, value in (a for a in call.args if a[0] == "keyword"):
        if keyword not in allowed:
            listed = [f'{k}("...")' for k in allowed]
            takes = ", ".join(listed[:-1]) + " and " + listed[-1] if len(listed) > 1 else listed[0]
            what = "a registration" if call.macro == "FILTERLAB_SCHEDULE" else "a frozen point (the rest is its base's)"
            fail(where, f"{keyword}(...): {what} takes {takes} only")
        if keyword in given:
            fail(where, f"{keyword}(...) given twice")
        if keyword in ("CUDA_ONLY", "FRONTIER") and not value.strip():
            fail(where, f"{keyword}(\"\"): say why")
        if keyword == "CUDA_ONLY" and value in OPENCL_REFUSALS.values():
            name = next(k for k, v in OPENCL_REFUSALS.items() if v == value)
            fail(where, f"CUDA_ONLY(\"{value}\"): name it, CUDA_ONLY(\"{name}\") (schedule_grammar.OPENCL_REFUSALS)")
        if keyword == "CUDA_ONLY" and NAME.fullmatch(value) and value not in OPENCL_REFUSALS:
            fail(where, f"CUDA_ONLY(\"{value}\"): no such reason; name one of {', '.join(OPENCL_REFUSALS)}, or say why")
        given[keyword] = OPENCL_REFUSALS.get(value, value) if keyword == "CUDA_ONLY" else value
    return given


def registration(call, filter_name, path, tokens, compile_time):
    """The manifest entry of one FILTERLAB_SCHEDULE call."""
    where = f"{path}:{call.line}"
    positional = [a for a in call.args if a[0] != "keyword"]
    if len(positional) == 3 and positional[1][0] == "ident" and positional[1][1] in ("cpu", "gpu") \
            and call.args[:3] == positional:
        fail(where, f"FILTERLAB_SCHEDULE({positional[0][-1]}, <Algorithm>, {positional[1][1]}, {positional[2][-1]}...): "
                    f"name the algorithm it schedules, a type of generators/{filter_name}.h")
    if call.args[:4] != positional:
        extra = next((a for a in positional[4:]), None)
        hint = f": \"{extra[1]}\" goes in SUPPORTS(\"...\") (what it restricts) or AXES(\"...\") (its space)" \
            if extra and extra[0] == "string" else ""
        fail(where, f"FILTERLAB_SCHEDULE({HEAD}{OPTIONAL}) expected{hint}")
    entry_filter = identifier(call.args[0], "filter", where)
    algorithm = algorithm_type(call.args[1], where)
    backend, name = call.args[2], identifier(call.args[3], "schedule's name", where)
    entry = new_entry(entry_filter, filter_name, backend, name, where)
    if name.startswith("auto_"):
        fail(where, "schedule names starting auto_ are the autoschedulers'")
    given = keywords_of(call, KEYWORDS, where)
    supports = read_supports(given["SUPPORTS"], where) if "SUPPORTS" in given else []
    axes = read_axes(given["AXES"], where) if "AXES" in given else []
    reads = given.get("READS", "bytes")
    if reads not in VIEWS:
        fail(where, f"READS(\"{reads}\"): a pipeline reads its image as {' or '.join(VIEWS)}")
    writes = given.get("WRITES", "bytes")
    if writes not in VIEWS:
        fail(where, f"WRITES(\"{writes}\"): a pipeline writes its output as {' or '.join(VIEWS)}")
    if writes != "bytes" and (entry["backend"] != "gpu" or reads != "bytes"):
        fail(where, f"WRITES(\"{writes}\") on a cpu schedule: the CPU stores whole vectors of bytes already"
             if entry["backend"] != "gpu" else f"WRITES(\"{writes}\") with READS(\"{reads}\"): a words output is written from bytes")
    if "CUDA_ONLY" in given and entry["backend"] != "gpu":
        fail(where, "CUDA_ONLY(...) on a cpu schedule: only a gpu schedule has an OpenCL build to refuse")
    entry.update(origin="schedule", algorithm=algorithm, algorithm_key=algorithm_key(algorithm), reads=reads, writes=writes,
                 cuda_only=given.get("CUDA_ONLY"), frontier=given.get("FRONTIER"), supports=supports,
                 compile_time=compile_time_values(compile_time, supports, where), axes=axes,
                 point=default_point(axes),
                 source={"file": path, "first_line": call.line, "last_line": body_end(tokens, call.end, where)})
    return entry


def new_entry(entry_filter, filter_name, backend, name, where):
    if entry_filter != filter_name:
        fail(where, f"a schedule of {entry_filter} in a source of {filter_name} (schedules/{filter_name}/)")
    if backend[0] != "ident" or backend[1] not in ("cpu", "gpu"):
        fail(where, f"backend {backend[-1]!r}: a schedule is cpu or gpu (a gpu schedule is built for "
                    f"{' and '.join(GPU_TARGETS)})")
    return {"filter": filter_name, "name": name, "backend": backend[1]}


def compile_time_values(compile_time, supports, where):
    """The values of the filter's compile-time parameter this schedule is built for (one library each)."""
    if not compile_time:
        return None
    param, values = compile_time
    restricted = next((s for s in supports if s["param"] == param), None)
    if restricted is None:
        return {"param": param, "values": values}
    if "values" not in restricted or not set(restricted["values"]) <= set(values):
        fail(where, f"{param} is fixed at compile time: SUPPORTS may name some of {values} only")
    return {"param": param, "values": restricted["values"]}


def frozen(call, filter_name, path, tokens, schedules):
    """The manifest entry of one FILTERLAB_FROZEN call: its base at one point."""
    where = f"{path}:{call.line}"
    positional = [a for a in call.args if a[0] != "keyword"]
    if [a[0] for a in positional] != ["ident"] * 4 + ["string"] or call.args[:5] != positional:
        fail(where, "FILTERLAB_FROZEN(<filter>, cpu|gpu, <name>, <base>, \"<axis>=<value>+<axis>=<value>...\""
                    "[, FRONTIER(\"...\")]) expected")
    if call.end >= len(tokens) or tokens[call.end][1] != ";":
        fail(where, "FILTERLAB_FROZEN(...) must end with ';'")
    given = keywords_of(call, ("FRONTIER",), where)
    entry = new_entry(identifier(call.args[0], "filter", where), filter_name, call.args[1],
                      identifier(call.args[2], "schedule's name", where), where)
    base_name = identifier(call.args[3], "base schedule", where)
    base = next((s for s in schedules if s["filter"] == filter_name and s["backend"] == entry["backend"]
                 and s["name"] == base_name and s["origin"] == "schedule"), None)
    if base is None:
        fail(where, f"frozen schedule {entry['name']}: no {entry['backend']} schedule {base_name} of "
                    f"{filter_name} registered before it")
    launch = [LAUNCH] if entry["backend"] == "gpu" else []
    if not base["axes"] and not launch:
        fail(where, f"frozen schedule {entry['name']}: {base_name} declares no AXES to fix")
    values = {v["axis"]: v["value"] for v in base["point"]["values"]}
    for item in read_point(call.args[4][1], f"{where}: frozen schedule {entry['name']}"):
        axis = next((a for a in base["axes"] + launch if a["name"] == item["axis"]), None)
        if axis is LAUNCH and item["value"] not in axis["values"]:
            fail(where, f"frozen schedule {entry['name']}: '{item['axis']}={item['value']}' is not a register cap of "
                        f"the launch's axis ({', '.join(map(str, axis['values']))})")
        if axis is None or item["value"] not in axis["values"]:
            fail(where, f"frozen schedule {entry['name']}: '{item['axis']}={item['value']}' is not a value "
                        f"{base_name} declares (AXES(\"...\") at line {base['source']['first_line']})")
        values[item["axis"]] = item["value"]
    entry.update({k: base[k] for k in ("algorithm", "algorithm_key", "reads", "writes", "cuda_only", "supports",
                                       "compile_time", "source")})
    axes = base["axes"] + [a for a in launch if a["name"] in values]
    entry.update(origin="frozen_point", base=base_name, frontier=given.get("FRONTIER"), axes=[],
                 point=point_forms([{"axis": a["name"], "value": values[a["name"]]} for a in axes]))
    if launch and LAUNCH["name"] in values and not entry["cuda_only"]:  # OpenCL's twin: its base's again
        entry["cuda_only"] = LAUNCH_ONLY
    return entry


def read_source(path, text, filter_name, compile_time, schedules):
    """Every registration of one schedule source, appended to `schedules` in the file's order."""
    tokens = list(tokens_of(text))
    for at, (kind, word, line) in enumerate(tokens):
        if kind == "ident" and word in RETIRED:
            fail(f"{path}:{line}", f"{word} is gone: {RETIRED[word]}")
        if kind != "ident" or word not in MACROS:
            continue
        call = read_call(tokens, at, path)
        if word == "FILTERLAB_FROZEN":
            entry = frozen(call, filter_name, path, tokens, schedules)
        else:
            entry = registration(call, filter_name, path, tokens, compile_time)
        twin = next((s for s in schedules if (s["filter"], s["backend"], s["name"]) ==
                     (filter_name, entry["backend"], entry["name"])), None)
        if twin:
            fail(f"{path}:{call.line}", f"{entry['backend']} schedule {entry['name']} of {filter_name} is "
                                        f"registered twice (also {twin['source']['file']}:{twin['source']['first_line']})")
        schedules.append(entry)


def estimates_span(source_dir, filter_name):
    """The lines of generators/<filter>_generator.cpp that state the images' views and the estimates: what an
    autoschedule is written from (image_views and require_views state the images'; filter_generator.h)."""
    path = f"generators/{filter_name}_generator.cpp"
    marks = ("estimate", "image_views(", "require_views(")
    with open(os.path.join(source_dir, path)) as f:
        lines = [n for n, line in enumerate(f, 1) if any(m in line for m in marks)]
    if not lines:
        fail(path, "no estimates (set_estimate, layout::estimate, require_views): the autoschedulers need them")
    return {"file": path, "first_line": lines[0], "last_line": lines[-1]}


def off_frontier(source_dir, filter_name):
    """{"<cpu|cuda>_<scheduler>": why} of schedules/<filter>/auto/off_frontier.txt: the autoschedules built only
    with FILTERLAB_ALL_SCHEDULES ("<cpu|cuda>_<scheduler>: why" a line; the file is optional)."""
    path = os.path.join(source_dir, "schedules", filter_name, "auto", "off_frontier.txt")
    if not os.path.exists(path):
        return {}
    listed = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            m = re.fullmatch(r"((?:cpu|cuda)_[a-z0-9]+): (\S.*)", line.strip())
            if not m:
                fail(f"schedules/{filter_name}/auto/off_frontier.txt:{number}", "not '<cpu|cuda>_<scheduler>: why'")
            listed[m[1]] = m[2]
    return listed


def autoschedules(source_dir, filter_name, paths, compile_time, all_schedules):
    """One entry per autoscheduler frozen in schedules/<filter>/auto/ (per backend), the files in its order; built
    unless off_frontier.txt names it (then with FILTERLAB_ALL_SCHEDULES only)."""
    entries = {}
    off = off_frontier(source_dir, filter_name)
    for path in sorted(set(paths)):
        stem = os.path.basename(path)[:-len(".schedule.h")]
        m = re.fullmatch(r"(cpu|cuda)_([a-z0-9]+)(?:_([a-z]+)([0-9]+))?", stem)
        if not m or bool(m[3]) != bool(compile_time) or (m[3] and m[3] != compile_time[0]):
            fail(path, "not <cpu|cuda>_<scheduler>[_<compile-time param><value>].schedule.h")
        backend = "cpu" if m[1] == "cpu" else "gpu"
        entry = entries.setdefault((backend, m[2]), {
            "filter": filter_name, "name": "auto_" + m[2], "backend": backend,
            "targets": [m[1]],  # an autoschedule is written for one target
            "origin": "autoscheduler", "algorithm": None, "algorithm_key": None,  # the filter's default
            "reads": "bytes", "writes": "bytes", "cuda_only": None, "frontier": None,
            "built": True,  # what the autoschedulers make of the filter is part of the answer (off_frontier.txt aside)
            "supports": [], "compile_time": {"param": m[3], "values": []} if m[3] else None,
            "axes": [], "point": point_forms([]), "source": estimates_span(source_dir, filter_name), "files": []})
        if f"{m[1]}_{m[2]}" in off:
            entry.update(built=all_schedules, off_frontier=off[f"{m[1]}_{m[2]}"])
        entry["files"].append({"file": path, "function": f"apply_schedule_{filter_name}_{stem}",
                               "value": int(m[4]) if m[4] else None})
        if m[3]:
            entry["compile_time"]["values"].append(int(m[4]))
    stale = sorted(set(off) - {f"{e['targets'][0]}_{e['name'][len('auto_'):]}" for e in entries.values()})
    if stale:
        fail(f"schedules/{filter_name}/auto/off_frontier.txt", f"{', '.join(stale)}: no such autoschedule")
    for entry in entries.values():
        if entry["compile_time"] and entry["compile_time"]["values"] != compile_time[1]:
            entry["supports"] = [{"param": compile_time[0], "values": entry["compile_time"]["values"]}]
    return list(entries.values())


def assign_targets(schedules):
    """A schedule's targets: cpu; a GPU one's CUDA and OpenCL, CUDA only where its registration (or its base's)
    says CUDA_ONLY."""
    for s in schedules:
        gpu_targets = GPU_TARGETS[:1] if s["cuda_only"] else GPU_TARGETS
        s["targets"] = gpu_targets if s["backend"] == "gpu" else ["cpu"]


def relative(path, source_dir):
    return os.path.relpath(os.path.abspath(path), os.path.abspath(source_dir)).replace(os.sep, "/")


def read_registrations(source_dir, sources, compile_times, all_schedules=False):
    """Every Halide schedule of these sources, in their order: a filter's registrations (on their targets), then
    its autoschedules ("built" set: the manifest sets the registrations', which the sweeps decide too)."""
    schedules, filters, autos = [], [], {}
    for source in sources:
        path = relative(source, source_dir)
        parts = path.split("/")
        if len(parts) < 3 or parts[0] != "schedules":
            fail(path, "a schedule source lives in schedules/<filter>/")
        filter_name = parts[1]
        if filter_name not in filters:
            filters.append(filter_name)
        if path.endswith(".schedule.h"):
            autos.setdefault(filter_name, []).append(path)
            continue
        with open(os.path.join(source_dir, path)) as f:
            read_source(path, f.read(), filter_name, compile_times.get(filter_name), schedules)
    assign_targets(schedules)
    ordered = []
    for filter_name in filters:
        ordered += [s for s in schedules if s["filter"] == filter_name]
        ordered += autoschedules(source_dir, filter_name, autos.get(filter_name, []), compile_times.get(filter_name),
                                 all_schedules)
    return ordered
