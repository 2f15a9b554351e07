# Which Halide libraries the build makes and how: their targets, the image
# shapes they are also compiled for, which schedules, and where the runtime
# comes from (generated here, or another build's). Included by FilterLab.cmake.

# Explicit targets, never `host`: the build machine and the GPU machine differ.
# CPU libraries are multi-target: Halide's runtime picks the first entry the
# running CPU supports, and the last (AVX2) is the baseline.
set(FILTERLAB_CPU_TARGETS
    x86-64-linux-avx512_skylake
    x86-64-linux-avx2
    CACHE STRING "Halide targets of the CPU libraries, most specific first")
# PTX for compute capability 8.6 (the newest Halide 21 names); the driver
# compiles it for the GPU it finds (sm_90 on the H100).
set(FILTERLAB_CUDA_TARGET x86-64-linux-avx2-cuda-cuda_capability_86
    CACHE STRING "Halide target of the CUDA libraries")
# OpenCL C source, compiled by the driver of whatever OpenCL device runs it
# (NVIDIA's on the H100, PoCL's CPU device in CI).
set(FILTERLAB_OPENCL_TARGET x86-64-linux-avx2-opencl
    CACHE STRING "Halide target of the OpenCL libraries")

# The image shapes (WIDTHxHEIGHT, comma-separated) every DSL CUDA variant is
# also compiled for, beside its generic library, and `aligned`, the class of
# every image whose width and row pitch are multiples of 64
# (runtime/base/image_shape.h: kAlignedWidth, kAlignedPitch): Halide's by a
# twin library whose extents are fixed or constrained (generator parameter
# shape), TVM's by its function specialised to the shape or class
# (filterlab_build/tvm_generate.py --shapes). A call of one of these shapes, or in
# the class, takes that path (compiled_pipeline.h; `list --json`'s "paths",
# results.csv's "path"). Each adds one library to every library of a CUDA
# variant (two with a words twin): name the shapes your images have
# (docs/specialisation.md).
set(FILTERLAB_SHAPES "1920x1080,aligned" CACHE STRING
    "Image shapes (WxH) and the aligned class (aligned) every DSL CUDA variant is also compiled for (comma-separated; empty: none)")

# Generated code does not depend on how our own code is compiled: a build
# configured with FILTERLAB_HALIDE_FROM=<another build folder> links that
# build's Halide libraries and runtime instead of generating its own. The
# sanitizer builds do (scripts/sanitize.sh): only host code is instrumented,
# and generating every library again would double CI's time. That build's
# sweeps and targets are taken over, so both hold the same variants.
set(FILTERLAB_HALIDE_FROM "" CACHE PATH "A build folder whose generated Halide libraries this build links")

# Halide's HTML view of a loop nest embeds the library's assembly, which Halide
# makes by running LLVM's code generation a second time per target, so it
# roughly doubles the compile time of the CPU libraries, the build's longest
# steps. The plain loop nest (.stmt), which
# the report and `filterlab explain` read, is always written.
option(FILTERLAB_STMT_HTML "Write Halide's HTML view (.stmt.html, with assembly) of every library" OFF)

# Which schedules the build compiles. OFF (the default): the frontier — the
# schedules and frozen points whose registration says FRONTIER("why"), every
# autoschedule but those schedules/<filter>/auto/off_frontier.txt names, and
# the schedules FILTERLAB_SWEEPS names; ON: every
# schedule in the tree (CI builds them all, so none rots). The manifest's
# "built" says which (filterlab_build/manifest.py, build/variants.json).
option(FILTERLAB_ALL_SCHEDULES "Build every schedule of both languages, not only the frontier" OFF)
if (FILTERLAB_HALIDE_FROM)
    if (NOT EXISTS ${FILTERLAB_HALIDE_FROM}/libfilterlab_halide_runtime.a)
        message(FATAL_ERROR "FILTERLAB_HALIDE_FROM=${FILTERLAB_HALIDE_FROM}: no Halide runtime there (build it first)")
    endif ()
    set(_from_settings FILTERLAB_SWEEPS FILTERLAB_ALL_SCHEDULES FILTERLAB_CPU_TARGETS FILTERLAB_CUDA_TARGET
                       FILTERLAB_OPENCL_TARGET FILTERLAB_SHAPES)
    load_cache(${FILTERLAB_HALIDE_FROM} READ_WITH_PREFIX _from_ ${_from_settings})
    foreach (setting IN LISTS _from_settings)
        set(${setting} "${_from_${setting}}" CACHE STRING "Taken from FILTERLAB_HALIDE_FROM" FORCE)
    endforeach ()
    # Configured again when that build's settings change, so both keep the same variants.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${FILTERLAB_HALIDE_FROM}/CMakeCache.txt)
    find_package(Threads REQUIRED)
    add_library(filterlab_halide_runtime STATIC IMPORTED GLOBAL)
    set_target_properties(filterlab_halide_runtime PROPERTIES
                          IMPORTED_LOCATION ${FILTERLAB_HALIDE_FROM}/libfilterlab_halide_runtime.a)
    target_link_libraries(filterlab_halide_runtime INTERFACE Halide::Runtime Threads::Threads ${CMAKE_DL_LIBS})
else ()
    # One runtime for every AOT library: it collects the targets of the libraries
    # that use it (the CUDA device runtime included).
    add_halide_runtime(filterlab_halide_runtime TARGETS x86-64-linux-avx2)
endif ()
