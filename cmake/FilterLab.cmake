# Build helpers: Halide targets, the shared runtime, and the one-line
# registration of schedules (see generators/schedule_registry.h).

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
# "built" says which (filterlab_build/schedule_manifest.py).
option(FILTERLAB_ALL_SCHEDULES "Build every Halide schedule, not only the frontier" OFF)
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

# One shape of FILTERLAB_SHAPES as an ImageShape's C++ initializer.
function(_filterlab_shape_cxx shape out)
    if (shape STREQUAL "aligned")
        set(${out} "filterlab::kAlignedClass" PARENT_SCOPE)
    else ()
        string(REPLACE "x" ", " pair "${shape}")
        set(${out} "{${pair}}" PARENT_SCOPE)
    endif ()
endfunction()

# FILTERLAB_SHAPES (its cache entry above; an importing build's is the other
# build's, set just above) as a list, checked, and as C++ initializers.
string(REPLACE "," ";" FILTERLAB_SHAPE_LIST "${FILTERLAB_SHAPES}")
list(REMOVE_ITEM FILTERLAB_SHAPE_LIST "")
list(REMOVE_DUPLICATES FILTERLAB_SHAPE_LIST)
foreach (shape IN LISTS FILTERLAB_SHAPE_LIST)
    if (shape STREQUAL "aligned")
        continue()
    endif ()
    if (NOT shape MATCHES "^([1-9][0-9]*)x([1-9][0-9]*)$" OR CMAKE_MATCH_1 GREATER 65536 OR CMAKE_MATCH_2 GREATER 65536)
        message(FATAL_ERROR "FILTERLAB_SHAPES: '${shape}' is not WIDTHxHEIGHT (each 1..65536), as in 3840x2160, nor aligned")
    endif ()
endforeach ()
# The shapes as Variant::exact_shapes' initializer: {1920, 1080}, ..., filterlab::kAlignedClass
set(FILTERLAB_SHAPES_CXX "")
foreach (shape IN LISTS FILTERLAB_SHAPE_LIST)
    _filterlab_shape_cxx(${shape} initializer)
    list(APPEND FILTERLAB_SHAPES_CXX "${initializer}")
endforeach ()
list(JOIN FILTERLAB_SHAPES_CXX ", " FILTERLAB_SHAPES_CXX)
list(JOIN FILTERLAB_SHAPE_LIST "," FILTERLAB_SHAPES_NORMAL)  # the shapes once each, comma-separated

# Library `lib` as FILTERLAB_HALIDE_FROM's build generated it: its archive and header.
function(_filterlab_import_halide_library lib)
    set(dir ${FILTERLAB_HALIDE_FROM}/schedules)
    set(archive "")
    foreach (candidate IN ITEMS ${dir}/lib${lib}.a ${dir}/${lib}.a)
        if (NOT archive AND EXISTS ${candidate} AND EXISTS ${dir}/${lib}.h)
            set(archive ${candidate})
        endif ()
    endforeach ()
    if (NOT archive)
        message(FATAL_ERROR "FILTERLAB_HALIDE_FROM: ${lib} was not built in ${FILTERLAB_HALIDE_FROM} (build it first)")
    endif ()
    add_library(${lib} STATIC IMPORTED GLOBAL)
    set_target_properties(${lib} PROPERTIES IMPORTED_LOCATION ${archive} INTERFACE_INCLUDE_DIRECTORIES ${dir})
    target_link_libraries(${lib} INTERFACE filterlab_halide_runtime)
endfunction()

# The object library every variant registration goes into; linked whole into
# the CLI and the tests, so static registrations are never dropped.
add_library(filterlab_variants OBJECT)
target_link_libraries(filterlab_variants PUBLIC filterlab_languages)
# The registrations generated from the template (one small file per variant,
# each parsing the same headers) compile in batches, one per filter and
# backend; the kernels and the rest compile one by one (UNITY_GROUP unset).
set_target_properties(filterlab_variants PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)

set(_filterlab_template "${CMAKE_CURRENT_LIST_DIR}/halide_variant.cpp.in")

# The Halide targets of a variant of backend VARIANT_BACKEND (cpu, cuda or opencl).
function(_filterlab_halide_targets VARIANT_BACKEND out)
    if (VARIANT_BACKEND STREQUAL "cuda")
        set(${out} ${FILTERLAB_CUDA_TARGET} PARENT_SCOPE)
    elseif (VARIANT_BACKEND STREQUAL "opencl")
        set(${out} ${FILTERLAB_OPENCL_TARGET} PARENT_SCOPE)
    else ()
        set(${out} ${FILTERLAB_CPU_TARGETS} PARENT_SCOPE)
    endif ()
endfunction()

# One static library `lib` of the generator of FILTER, with the generator
# parameters `params` (the schedule's key, its point, a compile-time value):
# entry point filterlab::halide::<lib>, its loop nest and, for CUDA, its PTX.
function(_filterlab_halide_library lib VARIANT_BACKEND params)
    target_link_libraries(filterlab_variants PUBLIC ${lib})
    set_property(GLOBAL APPEND PROPERTY FILTERLAB_HALIDE_LIBRARIES ${lib})
    if (FILTERLAB_HALIDE_FROM)
        _filterlab_import_halide_library(${lib})  # its PTX stays with the build that made it
        return()
    endif ()
    _filterlab_halide_targets(${VARIANT_BACKEND} targets)
    set(gpu_code "")
    set(html "")
    if (FILTERLAB_STMT_HTML)
        set(html STMT_HTML stmt_html_file)
    endif ()
    if (VARIANT_BACKEND STREQUAL "cuda")
        set(gpu_code DEVICE_CODE ptx_file)
    endif ()
    # The entry point is filterlab::halide::<lib> (a C++ namespace: installed
    # next to a user's own code, no name can clash). Halide's lowered loop
    # nest (and, with FILTERLAB_STMT_HTML, its HTML view) and the PTX come with it (`filterlab explain`,
    # the report).
    add_halide_library(${lib} FROM ${FILTER}.generator
                       GENERATOR ${FILTER}
                       FUNCTION_NAME filterlab::halide::${lib}
                       FEATURES c_plus_plus_name_mangling
                       PARAMS ${params}
                       TARGETS ${targets}
                       USE_RUNTIME filterlab_halide_runtime
                       STMT stmt_file ${html} ${gpu_code})
    if (gpu_code)
        # The register cap its module is loaded with: Halide's 64, unless the
        # point names max_registers (runtime/languages/halide_cuda_launch.h).
        set(cap 64)
        if (params MATCHES "max_registers:([0-9]+)")
            set(cap ${CMAKE_MATCH_1})
        endif ()
        set_property(GLOBAL APPEND PROPERTY FILTERLAB_HALIDE_PTX ${ptx_file})
        set_property(GLOBAL APPEND PROPERTY FILTERLAB_HALIDE_PTX_CAPPED ${ptx_file}@${cap})
    elseif (targets MATCHES ";")
        # A multi-target library writes one loop nest per target, never the
        # <lib>.stmt it declares: ninja would rerun the generator on every
        # build. The baseline's (the last target's) stands for it.
        list(GET targets -1 baseline)
        set(baseline_stem ${CMAKE_CURRENT_BINARY_DIR}/${lib}-${baseline}-c_plus_plus_name_mangling-no_runtime)
        add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${lib}.h APPEND
                           COMMAND ${CMAKE_COMMAND} -E copy ${baseline_stem}.stmt ${stmt_file})
        if (html)
            add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${lib}.h APPEND
                               COMMAND ${CMAKE_COMMAND} -E copy ${baseline_stem}.stmt.html ${stmt_html_file})
        endif ()
    endif ()
endfunction()

# How a schedule's variant on VARIANT_BACKEND reads and writes its image
# (the READS and WRITES of _filterlab_declare_schedule): the generator
# parameter of a words input, whether each library has a words twin
# (WRITES("words") on CUDA: output_view=words), and the binding's Views.
function(_filterlab_views VARIANT_BACKEND out_param out_twin out_argument)
    set(param "")
    set(input bytes)
    if (READS STREQUAL "words")
        set(param input_view=words)
        set(input words)
    endif ()
    set(twin OFF)
    set(output bytes)
    if (WRITES STREQUAL "words" AND VARIANT_BACKEND STREQUAL "cuda")
        set(twin ON)
        set(output words_where_whole)
    endif ()
    set(argument "")
    if (NOT input STREQUAL "bytes" OR twin)
        set(argument ", filterlab::Views{filterlab::InputView::${input}, filterlab::OutputView::${output}}")
    endif ()
    set(${out_param} "${param}" PARENT_SCOPE)
    set(${out_twin} ${twin} PARENT_SCOPE)
    set(${out_argument} "${argument}" PARENT_SCOPE)
endfunction()

# The libraries of one compiled value of a schedule's variant: `lib`, its
# words twin where WORDS_TWIN, and on CUDA each of both again for every shape
# of FILTERLAB_SHAPES (<lib>_<W>x<H>, generator parameter shape=WxH; the
# aligned class: <lib>_aligned, shape=aligned). Appends
# to the caller's INCLUDES and LIBRARIES; sets `out_entry` to the
# CompiledPipeline's entry points and twins (compiled_pipeline.h).
function(_filterlab_halide_library_twins lib VARIANT_BACKEND params WORDS_TWIN out_entry)
    set(suffixes "")
    if (WORDS_TWIN)
        set(suffixes _words)
    endif ()
    set(shapes "")
    if (VARIANT_BACKEND STREQUAL "cuda")
        set(shapes ${FILTERLAB_SHAPE_LIST})
    endif ()
    set(twins "")
    foreach (shape IN ITEMS "" LISTS shapes)
        set(names "")
        set(reports "")
        foreach (suffix IN ITEMS "" LISTS suffixes)
            set(twin_params "${params}")
            if (NOT suffix STREQUAL "")
                string(APPEND twin_params ";output_view=words")
            endif ()
            set(name ${lib}${suffix})
            if (NOT shape STREQUAL "")
                string(APPEND name _${shape})
                # The generator says in <name>_shape.h whether Halide took the shape (word_view.h: fix_shape).
                string(APPEND twin_params ";shape=${shape};shape_report=${CMAKE_CURRENT_BINARY_DIR}/${name}_shape.h")
                string(APPEND INCLUDES "#include \"${name}_shape.h\"\n")
                list(APPEND reports filterlab::shape_reports::${name}_shape)
            endif ()
            _filterlab_halide_library(${name} ${VARIANT_BACKEND} "${twin_params}")
            string(APPEND INCLUDES "#include \"${name}.h\"\n")
            string(APPEND LIBRARIES "\"${name}\", ")
            list(APPEND names &filterlab::halide::${name})
        endforeach ()
        if (NOT WORDS_TWIN)
            list(APPEND names nullptr)
            list(APPEND reports nullptr)
        endif ()
        list(JOIN names ", " names)
        if (NOT shape STREQUAL "")
            _filterlab_shape_cxx(${shape} initializer)
            list(JOIN reports ", " reports)
            list(APPEND twins "{${initializer}, ${names}, ${reports}}")
        else ()
            set(generic "${names}")
        endif ()
    endforeach ()
    list(JOIN twins ", " twins)
    set(${out_entry} "${generic}, {${twins}}" PARENT_SCOPE)
    set(INCLUDES "${INCLUDES}" PARENT_SCOPE)
    set(LIBRARIES "${LIBRARIES}" PARENT_SCOPE)
endfunction()

# One variant of the schedule being declared (reading the variables of
# _filterlab_declare_schedule, cmake/ScheduleManifest.cmake) on one target
# (cpu, cuda or opencl): its static libraries (one
# per compile-time value) at the point whose generator parameter is
# POINT_PARAMETER ("a:1+b:2") and spelling POINT_TEXT ("a=1+b=2", read by the
# registration with runtime/base/schedule_point.h), and the registration of
# VARIANT_NAME from the template, with the manifest's facts.
function(_filterlab_schedule_variant VARIANT_BACKEND VARIANT_NAME LIB ORIGIN POINT_PARAMETER POINT_TEXT)
    set(INCLUDES "")
    set(ENTRIES "")
    set(LIBRARIES "")
    set(point_param "")
    if (POINT_PARAMETER)
        set(point_param point=${POINT_PARAMETER})
    endif ()
    _filterlab_views(${VARIANT_BACKEND} view_param words_twin VIEW_ARGUMENT)
    foreach (value IN LISTS VALUES ITEMS "-")
        set(key ${BACKEND}_${NAME})
        if (value STREQUAL "-")
            if (VALUES)
                break()
            endif ()
            set(lib ${LIB})
            set(params "")
            set(fixed "{}")
        else ()
            set(lib ${LIB}_${PARAM}${value})
            set(params ${PARAM}=${value})
            set(fixed "{{\"${PARAM}\", ${value}}}")
            if (ORIGIN STREQUAL "autoscheduler")
                string(APPEND key _${PARAM}${value})  # one frozen autoschedule per compile-time value
            endif ()
        endif ()
        set(library_params "schedule=${key};${point_param};${params};${view_param}")
        _filterlab_halide_library_twins(${lib} ${VARIANT_BACKEND} "${library_params}" ${words_twin} entry)
        string(APPEND ENTRIES "{${fixed}, ${entry}}, ")
    endforeach ()
    configure_file(${_filterlab_template} ${CMAKE_CURRENT_BINARY_DIR}/${LIB}_variant.cpp @ONLY)
    target_sources(filterlab_variants PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/${LIB}_variant.cpp)
    set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${LIB}_variant.cpp TARGET_DIRECTORY filterlab_variants
                                PROPERTIES UNITY_GROUP ${FILTER}_${VARIANT_BACKEND})
    set_property(GLOBAL APPEND PROPERTY FILTERLAB_BUILT_VARIANTS "${FILTER}/${VARIANT_NAME}")
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/ScheduleManifest.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/ScheduleSpaces.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/TvmVariants.cmake)

# filterlab_halide_filter(<filter> [GENERATOR_PARAM <name> VALUES <values...>] SCHEDULES <sources...>):
# builds generators/<filter>_generator.cpp with the schedule sources and the
# filter's frozen autoschedules (schedules/<filter>/auto/), and hands the
# sources to filterlab_halide_schedules, which declares their variants. A
# GENERATOR_PARAM is a parameter fixed at compile time (median's size): one
# library per value of VALUES, or of those the schedule's SUPPORTS names.
# runtime/languages/bindings/<filter>_binding.h says how to call a pipeline.
function(filterlab_halide_filter FILTER)
    cmake_parse_arguments(ARG "" "GENERATOR_PARAM" "VALUES;SCHEDULES" ${ARGN})
    file(GLOB frozen CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/schedules/${FILTER}/auto/*.schedule.h)
    set(generator ${PROJECT_SOURCE_DIR}/generators/${FILTER}_generator.cpp)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ARG_SCHEDULES} ${generator})
    if (EXISTS ${PROJECT_SOURCE_DIR}/schedules/${FILTER}/auto/off_frontier.txt)  # autoschedules off the frontier
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
                     ${PROJECT_SOURCE_DIR}/schedules/${FILTER}/auto/off_frontier.txt)
    endif ()
    set_property(GLOBAL APPEND PROPERTY FILTERLAB_HALIDE_FILTERS ${FILTER})
    set_property(GLOBAL APPEND PROPERTY FILTERLAB_SCHEDULE_SOURCES ${ARG_SCHEDULES} ${frozen})
    if (ARG_GENERATOR_PARAM)
        list(JOIN ARG_VALUES "," values)
        set_property(GLOBAL APPEND PROPERTY FILTERLAB_COMPILE_TIME
                     --compile-time ${FILTER}:${ARG_GENERATOR_PARAM}=${values})
    endif ()
    if (NOT FILTERLAB_HALIDE_FROM)
        set_property(GLOBAL APPEND PROPERTY FILTERLAB_GENERATORS ${FILTER}.generator)
        add_halide_generator(${FILTER}.generator
                             SOURCES ${generator} ${ARG_SCHEDULES} ${CMAKE_CURRENT_BINARY_DIR}/${FILTER}_autoschedules.cpp)
        target_include_directories(${FILTER}.generator PRIVATE ${PROJECT_SOURCE_DIR}/generators
                                                               ${PROJECT_SOURCE_DIR}/schedules
                                                               ${PROJECT_SOURCE_DIR}/runtime/base)
        # A generator only declares a pipeline for libHalide to compile: its
        # own code runs once a library, so optimising it bought nothing and
        # doubled its compile time (what it generates does not depend on it).
        target_compile_options(${FILTER}.generator PRIVATE -O0)
    endif ()
endfunction()

# filterlab_halide_schedules(<manifest>): reads every registration of the
# filters declared so far with the grammar's one reader
# (filterlab_build/schedule_manifest.py, at configure time) into <manifest>, JSON of
# format 5 (docs/extending.md), and declares from it every library and variant
# this build builds (FILTERLAB_ALL_SCHEDULES: every schedule; else the
# frontier): each schedule on each of its targets, the points of the sweeps
# (FILTERLAB_SWEEPS), the frozen autoschedules. The global property
# FILTERLAB_BUILT_VARIANTS lists them, "<filter>/<variant>" (tests/CMakeLists.txt
# reads it).
function(filterlab_halide_schedules manifest)
    get_property(sources GLOBAL PROPERTY FILTERLAB_SCHEDULE_SOURCES)
    get_property(compile_time GLOBAL PROPERTY FILTERLAB_COMPILE_TIME)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
                 ${PROJECT_SOURCE_DIR}/filterlab_build/schedule_manifest.py
                 ${PROJECT_SOURCE_DIR}/filterlab_build/schedule_grammar.py)
    set(all_schedules "")
    if (FILTERLAB_ALL_SCHEDULES)
        set(all_schedules --all-schedules)
    endif ()
    execute_process(COMMAND ${FILTERLAB_PYTHON} -m filterlab_build.schedule_manifest
                            --source-dir ${PROJECT_SOURCE_DIR} --out ${manifest}
                            --sweeps "${FILTERLAB_SWEEPS}" ${all_schedules} ${compile_time} ${sources}
                    RESULT_VARIABLE status ERROR_VARIABLE error)
    if (NOT status EQUAL 0)
        message(FATAL_ERROR "${error}")
    endif ()
    file(READ ${manifest} json)
    string(JSON count LENGTH "${json}" schedules)
    math(EXPR last "${count} - 1")
    set(built 0)
    foreach (i RANGE ${last})
        string(JSON entry GET "${json}" schedules ${i})
        _filterlab_declare_schedule("${entry}")
        string(JSON is_built GET "${entry}" built)
        if (is_built)
            math(EXPR built "${built} + 1")
        endif ()
    endforeach ()
    _filterlab_autoschedule_sources("${json}")
    if (FILTERLAB_ALL_SCHEDULES)
        message(STATUS "FilterLab: ${count} Halide schedules, all built (FILTERLAB_ALL_SCHEDULES; ${manifest})")
    else ()
        message(STATUS "FilterLab: ${built} of ${count} Halide schedules built, the frontier "
                       "(-DFILTERLAB_ALL_SCHEDULES=ON builds all; ${manifest})")
    endif ()
endfunction()

# filterlab_compile_quickly(<targets...>): the targets' C++ at -O1 in a
# Release build, for code whose speed no measurement sees: the command line,
# the report, the results' schema and the tests. Most
# of their compile time is optimising header-only templates (CLI11, fmt,
# nlohmann-json), which -O1 does in about half the time of -O3. The
# references, the harness, the timing and the kernels keep -O3.
function(filterlab_compile_quickly)
    foreach (target IN LISTS ARGN)
        target_compile_options(${target} PRIVATE $<$<AND:$<CONFIG:Release>,$<COMPILE_LANGUAGE:CXX>>:-O1>)
        set_property(TARGET ${target} PROPERTY FILTERLAB_QUICKLY ON)  # filterlab_sanitize reads it
    endforeach ()
endfunction()

# filterlab_unity(<targets...>): the targets' sources compiled four to a
# translation unit. Each of them parses the same heavy headers (nlohmann-json,
# fmt, CLI11) and instantiates the same templates again; four to a unit, that
# is done a quarter as often. (So two files of a target never define the same
# name in an anonymous namespace: a unit would hold both.)
function(filterlab_unity)
    set_target_properties(${ARGN} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 4)
endfunction()

# filterlab_sanitize(<targets...>): with FILTERLAB_SANITIZE, compiles the targets' C++
# with ASan and UBSan (every UB finding fatal), or TSan, and links with them. CUDA device code, the generators and the Halide-generated
# libraries are not instrumented. -O1 -g1, as both sanitizers advise: stacks
# keep their file:line, and an instrumented file compiles much faster than at
# -O2 -g, which matters on a CI machine of few cores.
# The targets filterlab_compile_quickly names (the tests, the command line, the
# report: code that orchestrates, whose work the references and the harness
# do) at -O0: instrumented code's optimisation is most of their compile time,
# and nothing there is timed.
function(filterlab_sanitize)
    # (filterlab_sanitize_quickly names more: at -O0 under the sanitizers only.)
    if (FILTERLAB_SANITIZE STREQUAL "address")
        set(flags -g1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
        set(link -fsanitize=address,undefined)
    elseif (FILTERLAB_SANITIZE STREQUAL "thread")
        set(flags -g1 -fsanitize=thread -fno-omit-frame-pointer)
        set(link -fsanitize=thread)
    else ()
        return()
    endif ()
    foreach (target IN LISTS ARGN)
        get_target_property(quickly ${target} FILTERLAB_QUICKLY)
        get_target_property(quickly_sanitized ${target} FILTERLAB_QUICKLY_SANITIZED)
        set(options ${flags})
        if (quickly OR quickly_sanitized)
            list(PREPEND options -O0)
        else ()
            list(PREPEND options -O1)
        endif ()
        target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${options}>")
        get_target_property(type ${target} TYPE)
        if (type MATCHES "EXECUTABLE|MODULE_LIBRARY|SHARED_LIBRARY")
            target_link_options(${target} PRIVATE ${link})
        endif ()
    endforeach ()
endfunction()

# filterlab_sanitize_quickly(<targets...>): under the sanitizers only, the
# targets at -O0 as filterlab_compile_quickly's: the harness around the
# kernels (timing, checking, streaming, MPI, the API's glue), whose speed is
# measured in Release builds alone and whose instrumented optimisation is
# most of the sanitizer builds' compile time. Call it before filterlab_sanitize.
function(filterlab_sanitize_quickly)
    foreach (target IN LISTS ARGN)
        set_property(TARGET ${target} PROPERTY FILTERLAB_QUICKLY_SANITIZED ON)
    endforeach ()
endfunction()

# filterlab_kernel_resources(): <build>/kernel_resources.json, the registers,
# shared memory and spills of every CUDA kernel built: the Halide libraries'
# PTX, at the register cap each is loaded with, and the handwritten kernels'
# (filterlab_build/kernel_resources.py, ptxas -v for the H100's sm_90). `filterlab report` shows them beside the timings.
function(filterlab_kernel_resources)
    if (FILTERLAB_HALIDE_FROM)
        return()  # the PTX is the other build's, and so are its resources
    endif ()
    get_property(halide_ptx GLOBAL PROPERTY FILTERLAB_HALIDE_PTX)
    get_property(halide_ptx_capped GLOBAL PROPERTY FILTERLAB_HALIDE_PTX_CAPPED)
    get_property(libraries GLOBAL PROPERTY FILTERLAB_HALIDE_LIBRARIES)
    set(out ${PROJECT_BINARY_DIR}/kernel_resources.json)
    add_custom_command(OUTPUT ${out}
                       COMMAND ${FILTERLAB_PYTHON} -m filterlab_build.kernel_resources ${out}
                               ${CUDAToolkit_BIN_DIR}/ptxas sm_90 --halide ${halide_ptx_capped}
                               --handwritten $<TARGET_OBJECTS:filterlab_kernel_ptx>
                       DEPENDS ${halide_ptx} $<TARGET_OBJECTS:filterlab_kernel_ptx>
                               ${PROJECT_SOURCE_DIR}/filterlab_build/kernel_resources.py
                       COMMENT "Kernel resources (ptxas -v, sm_90)" VERBATIM COMMAND_EXPAND_LISTS)
    add_custom_target(filterlab_kernel_resources ALL DEPENDS ${out})
    add_dependencies(filterlab_kernel_resources filterlab_kernel_ptx ${libraries})
endfunction()
