"""The one manifest of the variants of both languages: build/variants.json (format 6, docs/extending.md).

Reads every schedule registration of both languages, Halide's (halide_registrations: the sources given) and
TVM's (tvm_registry: schedules/*/tvm_*.py of the source tree), reads the build's options once (FILTERLAB_SWEEPS:
sweeps; FILTERLAB_SHAPES: shapes; FILTERLAB_ALL_SCHEDULES), decides which schedules this build builds, and
writes every variant it builds with its libraries, each of their names derived once (library_names), and how
each archive is made (its language's recipe) and each variant registered (registrations). The build
(cmake/Variants.cmake) runs it at configure time and makes every archive and registration from it, composing
no name; nothing else reads the registrations or the options.

usage: python -m filterlab_build.manifest --source-dir DIR --out FILE [--sweeps LIST] [--all-schedules]
           [--shapes LIST] [--halide-target cpu|cuda|opencl=TARGET[;TARGET...] ...]
           [--compile-time FILTER:PARAM=V,V ...] SOURCE...
A SOURCE is a Halide schedule source, schedules/<filter>/<file> (halide_registrations). It prints what it
decided, a line each (the sweeps, how many schedules are built); a registration or an option it cannot take
stops it with one line on stderr, "manifest: <where>: <what>", status 1.
"""
import argparse
import json
import os
import re
import sys

from . import halide_variants, library_names, tvm_registry, tvm_variants
from .halide_registrations import read_registrations
from .schedule_grammar import GrammarError, launch_axis
from .shapes import read_shapes
from .sweeps import Sweepable, read_sweeps

FORMAT_VERSION = 6
SCHEDULE_FIELDS = ("language", "filter", "name", "backend", "targets", "origin", "algorithm", "algorithm_key",
                   "reads", "writes", "base", "why", "cuda_only", "frontier", "built", "off_frontier", "supports",
                   "compile_time", "compiled", "axes", "point", "sweep", "source", "files", "variants")
LANGUAGES = {"halide": "Halide", "tvm": "TVM"}


def halide_schedules(args):
    entries = read_registrations(args.source_dir, args.sources, dict(args.compile_time), args.all_schedules)
    for entry in entries:
        entry.update(language="halide", variants=[library_names.variant(t, entry["name"]) for t in entry["targets"]])
    return entries


def sweepable(entry):
    gpu = entry["backend"] == "gpu"
    return Sweepable(f"{entry['filter']}/{entry['variants'][0]}", entry["origin"], entry["axes"],
                     entry["point"]["values"], launch_axis(entry["language"]) if gpu else None)


def assign_sweeps_and_built(entries, sweeps_text, all_schedules):
    """Each schedule's sweep (FILTERLAB_SWEEPS), and whether this build builds it: every one with
    FILTERLAB_ALL_SCHEDULES; else the frontier (FRONTIER, frontier=) and the schedules swept, with their points
    (an autoschedule's comes with its entry: off_frontier.txt)."""
    sweeps = read_sweeps(sweeps_text, [sweepable(e) for e in entries])
    for entry in entries:
        name = f"{entry['filter']}/{entry['variants'][0]}"
        if name in sweeps:
            entry["sweep"] = sweeps[name]
        if entry["origin"] != "autoscheduler":
            entry["built"] = bool(all_schedules or entry["frontier"] or "sweep" in entry)


def autoschedules(entries):
    """The frozen autoschedules each filter's generator compiles in (<filter>_autoschedules.cpp), built or not."""
    out = []
    for entry in (e for e in entries if e["origin"] == "autoscheduler"):
        param = entry["compile_time"]["param"] if entry["compile_time"] else None
        for f in entry["files"]:
            fixed = {param: f["value"]} if f["value"] is not None else {}
            out.append({"filter": entry["filter"], "backend": entry["backend"], "include": f["file"],
                        "name": library_names.autoschedule_name(entry["name"], fixed), "function": f["function"]})
    return out


def summary(entries, variants, all_schedules, out):
    """What the build decided, a line each, for CMake to show."""
    lines = [f"sweep {e['filter']}/{e['variants'][0]}: {len(e['sweep'])} points" for e in entries if "sweep" in e]
    for language, title in LANGUAGES.items():
        of = [e for e in entries if e["language"] == language]
        built = sum(e["built"] for e in of)
        which = "every one (FILTERLAB_ALL_SCHEDULES)" if all_schedules else \
            "the frontier (-DFILTERLAB_ALL_SCHEDULES=ON builds all)"
        lines.append(f"{built} of {len(of)} {title} schedules built, {which}")
    return lines + [f"{len(variants)} variants ({out})"]


def manifest(args):
    """{"format_version", "options", "schedules", "autoschedules", "variants"} and the summary's lines."""
    options = {"sweeps": args.sweeps, "all_schedules": args.all_schedules, "shapes": read_shapes(args.shapes),
               "halide_targets": {kind: [] for kind in ("cpu", "cuda", "opencl")} | dict(args.halide_target)}
    halide = halide_schedules(args)
    tvm = [(s, tvm_variants.schedule_entry(s, args.source_dir)) for s in tvm_registry.load_registry(args.source_dir)]
    entries = halide + [entry for _, entry in tvm]
    assign_sweeps_and_built(entries, args.sweeps, args.all_schedules)
    variants = []
    for entry in (e for e in halide if e["built"]):
        variants += halide_variants.variants(entry, options)
    for s, entry in ((s, e) for s, e in tvm if e["built"]):
        variants += tvm_variants.variants(s, entry, options)
    schedules = [{k: e[k] for k in SCHEDULE_FIELDS if k in e} for e in entries]
    return ({"format_version": FORMAT_VERSION, "options": options, "schedules": schedules,
             "autoschedules": autoschedules(halide), "variants": variants},
            summary(entries, variants, args.all_schedules, args.out))


def manifest_text(result):
    """The manifest as JSON, each schedule, autoschedule and variant on a line of its own: a variant's line starts
    with {"variant": (the build reads the variants line by line: parsing the whole document once a variant
    would cost CMake minutes)."""
    def section(name, items, last=False):
        body = ",\n".join("  " + json.dumps(item) for item in items)
        return f' "{name}": [\n{body}\n ]' + ("" if last else ",")
    lines = ["{" + f'"format_version": {result["format_version"]},', f' "options": {json.dumps(result["options"])},',
             section("schedules", result["schedules"]), section("autoschedules", result["autoschedules"]),
             section("variants", result["variants"], last=True), "}"]
    return "\n".join(lines) + "\n"


def compile_time_option(text):
    m = re.fullmatch(r"([a-z][a-z0-9_]*):([a-z][a-z0-9_]*)=([0-9]+(?:,[0-9]+)*)", text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r} is not FILTER:PARAM=V,V")
    return m[1], (m[2], [int(v) for v in m[3].split(",")])


def halide_target_option(text):
    kind, equals, targets = text.partition("=")
    if kind not in ("cpu", "cuda", "opencl") or not equals:
        raise argparse.ArgumentTypeError(f"{text!r} is not cpu|cuda|opencl=TARGET[;TARGET...]")
    return kind, [t for t in re.split(r"[;,]", targets) if t]


def arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--sweeps", default="", help="FILTERLAB_SWEEPS: all, or <filter>/<target>_<schedule>,...")
    parser.add_argument("--all-schedules", action="store_true",
                        help="build every schedule (FILTERLAB_ALL_SCHEDULES), not only the frontier")
    parser.add_argument("--shapes", default="", help="FILTERLAB_SHAPES: WIDTHxHEIGHT or aligned, comma-separated")
    parser.add_argument("--halide-target", type=halide_target_option, action="append", default=[],
                        help="KIND=TARGET[;TARGET...]: the Halide targets of a kind of variant (cpu, cuda, opencl)")
    parser.add_argument("--compile-time", type=compile_time_option, action="append", default=[],
                        help="FILTER:PARAM=V,V: the filter's compile-time parameter and its values")
    parser.add_argument("sources", nargs="*")
    return parser.parse_args(argv)


def main(argv):
    args = arguments(argv)
    try:
        result, lines = manifest(args)
    except (GrammarError, ValueError) as e:  # a registration, a point or an option refused
        print(f"manifest: {e}", file=sys.stderr)
        return 1
    except ImportError as e:  # the TVM schedules import TVM
        print(f"manifest: the TVM schedules need the venv's pinned apache-tvm (scripts/setup.sh installs it): {e}",
              file=sys.stderr)
        return 1
    text = manifest_text(result)
    if not os.path.exists(args.out) or open(args.out).read() != text:  # unchanged: left untouched
        with open(args.out, "w") as f:
            f.write(text)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
