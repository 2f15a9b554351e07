# Build helpers: Halide targets, the shared runtime, and the one-line
# registration of schedules (see generators/schedule_registry.h).

include(${CMAKE_CURRENT_LIST_DIR}/HalideSettings.cmake)

# One shape of FILTERLAB_SHAPES as an ImageShape's C++ initializer.
function(_filterlab_shape_cxx shape out)
    if (shape STREQUAL "aligned")
        set(${out} "filterlab::kAlignedClass" PARENT_SCOPE)
    else ()
        string(REPLACE "x" ", " pair "${shape}")
        set(${out} "{${pair}}" PARENT_SCOPE)
    endif ()
endfunction()

# FILTERLAB_SHAPES (its cache entry: HalideSettings.cmake; an importing build's is the other
# build's, taken over there) as a list, checked, and as C++ initializers.
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

include(${CMAKE_CURRENT_LIST_DIR}/CompileSettings.cmake)
