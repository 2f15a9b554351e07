#!/usr/bin/env python3
"""The one reader of the schedule registrations (schedules/schedule_registry.h).

Reads every FILTERLAB_SCHEDULE, FILTERLAB_SCHEDULE_OF and FILTERLAB_FROZEN call
of the schedule sources given, and the frozen autoschedules
(schedules/<filter>/auto/*.schedule.h), and writes one manifest (JSON) of every
schedule: its filter, algorithm, backend and targets, name, what it restricts,
axes, the point it is built at, source span, and the points of a sweep. The
build (cmake/FilterLab.cmake) runs it at configure time and declares every
library and variant from the manifest; nothing else reads the registrations.
The tokens, the calls' arguments, SUPPORTS and AXES are read by
scripts/schedule_grammar.py (beside this file, imported from it).

A registration is one macro call, laid out as one likes (spaces and line
breaks anywhere between its tokens; comments are not read):

    FILTERLAB_SCHEDULE(<filter>, cpu|gpu, <name>[, SUPPORTS("<spec>")][, AXES("<axes>")][, READS("words")]) { <body> }
    FILTERLAB_SCHEDULE_OF(<filter>, <algorithm>, cpu|gpu, <name>[, SUPPORTS(...)][, AXES(...)][, READS(...)]) { <body> }
    FILTERLAB_FROZEN(<filter>, cpu|gpu, <name>, <base>, "<axis>=<value>,...");

SUPPORTS is what the schedule restricts of the contract ("radius=1",
"size=3,5", "radius=1..7", several joined by ';'); without it the schedule
takes the contract's whole domain. AXES declares its space
("tile_x=16,[32],64 tile_y=2,[8]": values, the default in brackets). READS
says how the pipeline reads its 8-bit image: "bytes" (the default) or
"words", a view of the same rows as 32-bit words (4 pixels each), so that
Halide can load 16 bytes at once (../shared/HALIDE_GPU.md); the build passes
it to the generator (input_view=words) and to the variant's binding.

usage: schedule_manifest.py --source-dir DIR --out FILE [--sweeps LIST] [--opencl-refused LIST]
                            [--compile-time FILTER:PARAM=V,V ...] SOURCE...
A SOURCE is schedules/<filter>/<file> (its filter is its folder's name); one
ending .schedule.h is a frozen autoschedule, <cpu|cuda>_<scheduler>[_<param><value>].schedule.h.
An ill-formed registration stops it with one line, "<file>:<line>: <what>", status 1.
"""
import argparse
import json
import os
import re
import sys

from schedule_grammar import (KEYWORDS, MACROS, VIEWS, GrammarError, body_end, default_point, every_point, fail,
                              identifier, read_axes, read_call, read_supports, tokens_of)

FORMAT_VERSION = 3
GPU_TARGETS = ["cuda", "opencl"]  # a GPU schedule's gpu_* directives: every GPU API takes them


def registration(call, filter_name, path, tokens, compile_time):
    """The manifest entry of one FILTERLAB_SCHEDULE or FILTERLAB_SCHEDULE_OF call."""
    where = f"{path}:{call.line}"
    positional = [a for a in call.args if a[0] != "keyword"]
    keywords = [a for a in call.args if a[0] == "keyword"]
    count = 4 if call.macro == "FILTERLAB_SCHEDULE_OF" else 3
    head = "<filter>, <algorithm>, cpu|gpu, <name>" if count == 4 else "<filter>, cpu|gpu, <name>"
    if call.args[:count] != positional:
        extra = next((a for a in positional[count:]), None)
        hint = f": \"{extra[1]}\" goes in SUPPORTS(\"...\") (what it restricts) or AXES(\"...\") (its space)" \
            if extra and extra[0] == "string" else ""
        fail(where, f"{call.macro}({head}[, SUPPORTS(\"...\")][, AXES(\"...\")]) expected{hint}")
    entry_filter = identifier(call.args[0], "filter", where)
    algorithm = identifier(call.args[1], "algorithm", where) if count == 4 else None
    backend, name = call.args[count - 2], identifier(call.args[count - 1], "schedule's name", where)
    entry = new_entry(entry_filter, filter_name, backend, name, where)
    if name.startswith("auto_"):
        fail(where, "schedule names starting auto_ are the autoschedulers'")
    given = {}
    for _, keyword, value in keywords:
        if keyword not in KEYWORDS:
            fail(where, f"{keyword}(...): a registration takes SUPPORTS(\"...\"), AXES(\"...\") and READS(\"...\") only")
        if keyword in given:
            fail(where, f"{keyword}(...) given twice")
        given[keyword] = value
    supports = read_supports(given["SUPPORTS"], where) if "SUPPORTS" in given else []
    axes = read_axes(given["AXES"], where) if "AXES" in given else []
    reads = given.get("READS", "bytes")
    if reads not in VIEWS:
        fail(where, f"READS(\"{reads}\"): a pipeline reads its image as {' or '.join(VIEWS)}")
    entry.update(origin="schedule", algorithm=algorithm, reads=reads, supports=supports,
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
    kinds = [a[0] for a in call.args]
    if kinds != ["ident"] * 4 + ["string"]:
        fail(where, "FILTERLAB_FROZEN(<filter>, cpu|gpu, <name>, <base>, \"<axis>=<value>,...\") expected")
    if call.end >= len(tokens) or tokens[call.end][1] != ";":
        fail(where, "FILTERLAB_FROZEN(...) must end with ';'")
    entry = new_entry(identifier(call.args[0], "filter", where), filter_name, call.args[1],
                      identifier(call.args[2], "schedule's name", where), where)
    base_name = identifier(call.args[3], "base schedule", where)
    base = next((s for s in schedules if s["filter"] == filter_name and s["backend"] == entry["backend"]
                 and s["name"] == base_name and s["origin"] == "schedule"), None)
    if base is None:
        fail(where, f"frozen schedule {entry['name']}: no {entry['backend']} schedule {base_name} of "
                    f"{filter_name} registered before it")
    if not base["axes"]:
        fail(where, f"frozen schedule {entry['name']}: {base_name} declares no AXES to fix")
    values = {a["axis"]: a["value"] for a in base["point"]}
    for item in call.args[4][1].split(","):
        m = re.fullmatch(r"\s*([a-z][a-z0-9_]*)=(-?[0-9]+)\s*", item)
        axis = next((a for a in base["axes"] if m and a["name"] == m[1]), None)
        if axis is None or int(m[2]) not in axis["values"]:
            fail(where, f"frozen schedule {entry['name']}: '{item}' is not a value {base_name} declares "
                        f"(AXES(\"...\") at line {base['source']['first_line']})")
        values[m[1]] = int(m[2])
    entry.update({k: base[k] for k in ("algorithm", "reads", "supports", "compile_time", "source")})
    entry.update(origin="frozen_point", base=base_name, axes=[],
                 point=[{"axis": a["name"], "value": values[a["name"]]} for a in base["axes"]])
    return entry


def read_source(path, text, filter_name, compile_time, schedules):
    """Every registration of one schedule source, appended to `schedules` in the file's order."""
    tokens = list(tokens_of(text))
    for at, (kind, word, _) in enumerate(tokens):
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
    """The lines of generators/<filter>_generator.cpp that state estimates: what an autoschedule is written from."""
    path = f"generators/{filter_name}_generator.cpp"
    with open(os.path.join(source_dir, path)) as f:
        lines = [n for n, line in enumerate(f, 1) if "estimate" in line]
    if not lines:
        fail(path, "no estimates (set_estimate, layout::estimate): the autoschedulers need them")
    return {"file": path, "first_line": lines[0], "last_line": lines[-1]}


def autoschedules(source_dir, filter_name, paths, compile_time):
    """One entry per autoscheduler frozen in schedules/<filter>/auto/ (per backend), the files in its order."""
    entries = {}
    for path in sorted(set(paths)):
        stem = os.path.basename(path)[:-len(".schedule.h")]
        m = re.fullmatch(r"(cpu|cuda)_([a-z0-9]+)(?:_([a-z]+)([0-9]+))?", stem)
        if not m or bool(m[3]) != bool(compile_time) or (m[3] and m[3] != compile_time[0]):
            fail(path, "not <cpu|cuda>_<scheduler>[_<compile-time param><value>].schedule.h")
        backend = "cpu" if m[1] == "cpu" else "gpu"
        entry = entries.setdefault((backend, m[2]), {
            "filter": filter_name, "name": "auto_" + m[2], "backend": backend,
            "targets": [m[1]],  # an autoschedule is written for one target
            "origin": "autoscheduler", "algorithm": None, "reads": "bytes", "supports": [],
            "compile_time": {"param": m[3], "values": []} if m[3] else None,
            "axes": [], "point": [], "source": estimates_span(source_dir, filter_name), "files": []})
        entry["files"].append({"file": path, "function": f"apply_schedule_{filter_name}_{stem}",
                               "value": int(m[4]) if m[4] else None})
        if m[3]:
            entry["compile_time"]["values"].append(int(m[4]))
    for entry in entries.values():
        if entry["compile_time"] and entry["compile_time"]["values"] != compile_time[1]:
            entry["supports"] = [{"param": compile_time[0], "values": entry["compile_time"]["values"]}]
    return list(entries.values())


def assign_targets(schedules, refused):
    """A GPU schedule's targets: CUDA and OpenCL, but CUDA only where OpenCL's code generator refuses it
    (a frozen point of a refused schedule is refused with it)."""
    for name in refused:
        if not any(f"{s['filter']}/{s['name']}" == name and s["backend"] == "gpu" and s["origin"] != "autoscheduler"
                   for s in schedules):
            fail("FILTERLAB_OPENCL_REFUSED", f"{name} is not a GPU schedule (<filter>/<schedule>)")
    for s in schedules:
        if s["origin"] == "autoscheduler":
            continue
        names = {f"{s['filter']}/{s['name']}", f"{s['filter']}/{s.get('base') or s['name']}"}
        gpu_targets = [t for t in GPU_TARGETS if t == "cuda" or not names & set(refused)]
        s["targets"] = gpu_targets if s["backend"] == "gpu" else ["cpu"]


def assign_sweeps(schedules, sweeps):
    """The points of each schedule FILTERLAB_SWEEPS names ("all", or <filter>/<target>_<name>), built on its first target."""
    for name in sweeps:
        if name == "all":
            continue
        s = next((s for s in schedules if s["origin"] == "schedule" and
                  f"{s['filter']}/{s['targets'][0]}_{s['name']}" == name), None)
        if s is None:
            fail("FILTERLAB_SWEEPS", f"{name}: no such schedule (<filter>/<backend>_<schedule>)")
        if not s["axes"]:
            fail("FILTERLAB_SWEEPS", f"{name} declares no axes")
    for s in schedules:
        named = f"{s['filter']}/{s['targets'][0]}_{s['name']}" in sweeps
        if s["origin"] == "schedule" and s["axes"] and ("all" in sweeps or named):
            s["sweep"] = every_point(s["axes"])


def relative(path, source_dir):
    return os.path.relpath(os.path.abspath(path), os.path.abspath(source_dir)).replace(os.sep, "/")


def manifest(source_dir, sources, compile_times, sweeps, refused):
    """The manifest of these sources: {"format_version", "schedules": [...]}, schedules in the sources' order."""
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
    assign_targets(schedules, refused)
    assign_sweeps(schedules, sweeps)
    ordered = []
    for filter_name in filters:  # a filter's registrations, then its autoschedules
        ordered += [s for s in schedules if s["filter"] == filter_name]
        ordered += autoschedules(source_dir, filter_name, autos.get(filter_name, []), compile_times.get(filter_name))
    fields = ("filter", "name", "backend", "targets", "origin", "algorithm", "reads", "base", "supports", "compile_time",
              "axes", "point", "sweep", "source", "files")
    return {"format_version": FORMAT_VERSION, "schedules": [{k: s[k] for k in fields if k in s} for s in ordered]}


def compile_time_option(text):
    m = re.fullmatch(r"([a-z][a-z0-9_]*):([a-z][a-z0-9_]*)=([0-9]+(?:,[0-9]+)*)", text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r} is not FILTER:PARAM=V,V")
    return m[1], (m[2], [int(v) for v in m[3].split(",")])


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--sweeps", default="", help="all, or <filter>/<backend>_<schedule>,...")
    parser.add_argument("--opencl-refused", default="", help="<filter>/<schedule>,... built for CUDA only")
    parser.add_argument("--compile-time", type=compile_time_option, action="append", default=[],
                        help="FILTER:PARAM=V,V: the filter's compile-time parameter and its values")
    parser.add_argument("sources", nargs="*")
    args = parser.parse_args(argv)
    split = lambda s: [item for item in re.split(r"[,;]", s) if item]
    try:
        result = manifest(args.source_dir, args.sources, dict(args.compile_time), split(args.sweeps),
                          split(args.opencl_refused))
    except GrammarError as e:
        print(f"schedule_manifest: {e}", file=sys.stderr)
        return 1
    text = json.dumps(result, indent=1) + "\n"
    if not os.path.exists(args.out) or open(args.out).read() != text:  # unchanged: left untouched
        with open(args.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
