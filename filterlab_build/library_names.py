"""Every name a variant and its libraries take, derived here once for both languages.

The manifest (filterlab_build.manifest, build/variants.json) writes each name down, and everything after it
carries the name as data: CMake's targets, archives and installed files (cmake/Variants.cmake,
cmake/Install.cmake), the registrations (cmake/*_variant.cpp.in: Variant::libraries), `filterlab list --json`.
TVM's generation (tvm_generate, cuda_source) names its C functions and launchers with the same functions, so
that a launcher the registration declares is the one its .cu defines.

A Halide library is <filter>_<target>_<schedule>[__<point tag>][_<param><value>...][_words][_<shape>], one
archive each, entry point filterlab::halide::<library>; a TVM variant is one archive,
filterlab_<filter>_tvm_<schedule>[__<point tag>], holding one launcher a library,
filterlab_tvm_<filter>_<schedule>[__<point tag>][_<param><value>...].
"""

HALIDE_NAMESPACE = "filterlab::halide"
HALIDE_HEADER_DIR = "filterlab/halide"  # where the installed package puts each library's generated header
TVM_HEADER = "filterlab/tvm/tvm_call.h"  # the one header declaring every TVM launcher's call
TVM_TARGET = "tvm"  # what a TVM variant's name starts with, as a Halide one's with its target
WORDS = "words"  # the suffix of a library's twin that writes 32-bit words (WRITES("words"))


def archive_file(target):
    """The static library the build makes of a target, as installed in lib/filterlab/."""
    return f"lib{target}.a"


def stem(schedule, point_tag=""):
    """A schedule's name, a sweep point's with its point's library tag (tile__tile_x64_tile_y4)."""
    return f"{schedule}__{point_tag}" if point_tag else schedule


def fixed_suffix(fixed):
    """The suffix of a library compiled for fixed values of parameters ({"size": 3}: _size3)."""
    return "".join(f"_{param}{value}" for param, value in fixed.items())


def variant(target, schedule, point_text=""):
    """A variant: <target>_<schedule> (Halide's target cpu, cuda or opencl; TVM's variants are all TVM_TARGET),
    a sweep point's with its point ([a=1+b=2])."""
    return f"{target}_{schedule}" + (f"[{point_text}]" if point_text else "")


def halide_library(filter_name, target, schedule_stem, fixed=None, words=False, shape=""):
    """Every name of one Halide library (a compile-time value's, its words twin's, each one's shape twins'), an
    archive of its own: {"name", "file", "header" (the generator writes it beside the archive),
    "installed_header", "entry_point", "shape_report" (a shape twin's: the header and symbol in which its
    generator says whether Halide took the shape, generators/word_view.h; else None)}."""
    name = f"{filter_name}_{target}_{schedule_stem}{fixed_suffix(fixed or {})}"
    name += (f"_{WORDS}" if words else "") + (f"_{shape}" if shape else "")
    report = {"header": f"{name}_shape.h", "symbol": f"filterlab::shape_reports::{name}_shape"}
    return {"name": name, "file": archive_file(name), "header": f"{name}.h",
            "installed_header": f"{HALIDE_HEADER_DIR}/{name}.h", "entry_point": f"{HALIDE_NAMESPACE}::{name}",
            "shape_report": report if shape else None}


def halide_schedule_key(backend, schedule):
    """The key a generator finds a schedule by (generator parameter schedule=), as the registry composes it
    (generators/schedule_registry.h: #BACKEND "_" #NAME)."""
    return f"{backend}_{schedule}"


def autoschedule_name(schedule, fixed):
    """The name a frozen autoschedule registers under (FILTERLAB_AUTOSCHEDULED): one per compile-time value."""
    return f"{schedule}{fixed_suffix(fixed)}"


def tvm_archive(filter_name, schedule_stem):
    """Every name of the one archive all of a TVM variant's launchers are compiled into: {"target", "file",
    "package_target" (FilterLab::<filter>_tvm_<name> in the installed package; the target is it, prefixed as
    the project's own), "source" (the CUDA C the build writes for it)}."""
    package_target = f"{filter_name}_tvm_{schedule_stem}"
    target = f"filterlab_{package_target}"
    return {"target": target, "file": archive_file(target), "package_target": package_target,
            "source": f"tvm/{target}.cu"}


def tvm_library(filter_name, schedule_stem, fixed):
    """One TVM library: the function TVM compiles for one combination of compiled values."""
    return f"tvm_{filter_name}_{schedule_stem}{fixed_suffix(fixed)}"


def tvm_launcher(library):
    """The C function that launches a TVM library's kernels (runtime/languages/tvm_call.h)."""
    return f"filterlab_{library}"


def registration_names(stem_name):
    """The registration source of a variant and the C++ object in it."""
    return f"{stem_name}_variant.cpp", f"{stem_name}_registration"
