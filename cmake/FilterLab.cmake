# Build helpers: Halide targets, the shared runtime, and the one-line
# registration of schedules (see schedules/schedule_registry.h).

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

# Generated code does not depend on how our own code is compiled: a build
# configured with FILTERLAB_HALIDE_FROM=<another build folder> links that
# build's Halide libraries and runtime instead of generating its own. The
# sanitizer builds do (scripts/sanitize.sh): only host code is instrumented,
# and generating every library again would double CI's time. That build's
# sweeps and targets are taken over, so both hold the same variants.
set(FILTERLAB_HALIDE_FROM "" CACHE PATH "A build folder whose generated Halide libraries this build links")
if (FILTERLAB_HALIDE_FROM)
    if (NOT EXISTS ${FILTERLAB_HALIDE_FROM}/libfilterlab_halide_runtime.a)
        message(FATAL_ERROR "FILTERLAB_HALIDE_FROM=${FILTERLAB_HALIDE_FROM}: no Halide runtime there (build it first)")
    endif ()
    load_cache(${FILTERLAB_HALIDE_FROM} READ_WITH_PREFIX _from_ FILTERLAB_SWEEPS FILTERLAB_CPU_TARGETS
               FILTERLAB_CUDA_TARGET FILTERLAB_OPENCL_TARGET)
    foreach (setting IN ITEMS FILTERLAB_SWEEPS FILTERLAB_CPU_TARGETS FILTERLAB_CUDA_TARGET FILTERLAB_OPENCL_TARGET)
        set(${setting} "${_from_${setting}}" CACHE STRING "Taken from FILTERLAB_HALIDE_FROM" FORCE)
    endforeach ()
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
target_link_libraries(filterlab_variants PUBLIC filterlab_core)

set(_filterlab_template "${CMAKE_CURRENT_LIST_DIR}/halide_variant.cpp.in")

# The one reader of schedule registrations. Each line of `source` that starts
# with FILTERLAB_SCHEDULE(<filter>, <backend>, <name>, "<supports>"[, "<axes>"])
# is one schedule; its body ends at the first following line that is exactly
# "}". A line FILTERLAB_FROZEN(<filter>, <backend>, <name>, <base>, "<point>");
# is schedule <base> of the same file fixed at one point. Sets `out` to one
# "backend|name|supports|first line|last line|axes|frozen point" per schedule;
# in axes, the brackets around a default are written < > (CMake's lists give
# brackets a meaning).
function(_filterlab_read_schedules FILTER source out)
    file(READ ${source} text)
    string(PREPEND text "\n")  # so that a registration on line 1 starts with a newline too
    set(quoted "\"([^\"|&]*)\"")
    set(pattern "^FILTERLAB_SCHEDULE\\(${FILTER}, (cpu|cuda), ([a-z0-9_]+), ${quoted}(, ${quoted})?\\) {$")
    set(frozen_pattern "^FILTERLAB_FROZEN\\(${FILTER}, (cpu|cuda), ([a-z0-9_]+), ([a-z0-9_]+), ${quoted}\\);$")
    set(found "")
    set(line 0)  # the line `text` starts on (0: the newline put in front)
    while (TRUE)
        string(REGEX MATCH "\nFILTERLAB_(SCHEDULE|SCHEDULE_OF|FROZEN)\\(" next "${text}")
        if (NOT next)
            break()
        endif ()
        string(FIND "${text}" "${next}" at)
        math(EXPR at "${at} + 1")
        string(SUBSTRING "${text}" 0 ${at} before)
        string(SUBSTRING "${text}" ${at} -1 text)
        string(REGEX MATCHALL "\n" newlines "${before}")
        list(LENGTH newlines skipped)
        math(EXPR line "${line} + ${skipped}")
        string(FIND "${text}" "\n" end_of_header)
        string(SUBSTRING "${text}" 0 ${end_of_header} header)
        # FILTERLAB_SCHEDULE_OF(<filter>, <algorithm>, ...: a schedule of that
        # algorithm, read as a FILTERLAB_SCHEDULE line from there on.
        set(algorithm "")
        if (header MATCHES "^FILTERLAB_SCHEDULE_OF\\(${FILTER}, ([a-z0-9_]+), (.*)$")
            set(algorithm ${CMAKE_MATCH_1})
            set(header "FILTERLAB_SCHEDULE(${FILTER}, ${CMAKE_MATCH_2}")
        endif ()
        if (header MATCHES "${frozen_pattern}")
            # Its base's supports and lines: filled in below.
            list(APPEND found "${CMAKE_MATCH_1}|${CMAKE_MATCH_2}|@${CMAKE_MATCH_3}|0|0||${CMAKE_MATCH_4}|")
            continue()
        endif ()
        if (NOT header MATCHES "${pattern}")
            message(FATAL_ERROR "${source}:${line}: cannot read schedule registration: ${header}")
        endif ()
        # Several parameters' supports are joined by ';', a list separator here.
        string(REPLACE ";" "&" supports "${CMAKE_MATCH_3}")
        string(REPLACE "[" "<" axes "${CMAKE_MATCH_5}")
        string(REPLACE "]" ">" axes "${axes}")
        set(registration "${CMAKE_MATCH_1}|${CMAKE_MATCH_2}|${supports}|${line}")
        if (CMAKE_MATCH_2 MATCHES "^auto_")  # (resets CMAKE_MATCH_*)
            message(FATAL_ERROR "${source}:${line}: schedule names starting auto_ are the autoschedulers'")
        endif ()
        string(FIND "${text}" "\n}\n" close)
        if (close EQUAL -1)
            message(FATAL_ERROR "${source}:${line}: the schedule's body must end with a line that is exactly \"}\"")
        endif ()
        string(SUBSTRING "${text}" 0 ${close} body)
        if (body MATCHES "\nFILTERLAB_SCHEDULE")
            message(FATAL_ERROR "${source}:${line}: the schedule's body must end with a line that is exactly \"}\" "
                                "before the next FILTERLAB_SCHEDULE")
        endif ()
        string(REGEX MATCHALL "\n" newlines "${body}")
        list(LENGTH newlines body_lines)
        math(EXPR last "${line} + ${body_lines} + 1")
        list(APPEND found "${registration}|${last}|${axes}||${algorithm}")
    endwhile ()
    # A frozen schedule runs its base's body: it takes the base's supports and lines.
    set(resolved "")
    foreach (registration IN LISTS found)
        if (registration MATCHES "^([a-z]+)\\|([a-z0-9_]+)\\|@([a-z0-9_]+)\\|0\\|0\\|\\|(.*)\\|$")
            set(frozen "${CMAKE_MATCH_1}|${CMAKE_MATCH_2}")
            set(backend ${CMAKE_MATCH_1})  # each MATCHES below resets CMAKE_MATCH_*
            set(base_name ${CMAKE_MATCH_3})
            set(point "${CMAKE_MATCH_4}")
            set(base "")
            foreach (candidate IN LISTS found)
                if (candidate MATCHES "^${backend}\\|${base_name}\\|([^|]*)\\|([0-9]+)\\|([0-9]+)\\|[^|]*\\|[^|]*\\|(.*)$")
                    set(base "${CMAKE_MATCH_1}|${CMAKE_MATCH_2}|${CMAKE_MATCH_3}")
                    set(base_algorithm "${CMAKE_MATCH_4}")
                endif ()
            endforeach ()
            if (NOT base)
                message(FATAL_ERROR "${source}: frozen schedule ${frozen}: no schedule ${base_name} in this file")
            endif ()
            set(registration "${frozen}|${base}||${point}|${base_algorithm}")
        endif ()
        list(APPEND resolved "${registration}")
    endforeach ()
    set(${out} "${resolved}" PARENT_SCOPE)
endfunction()

# One variant of one schedule on one backend: the schedule's static library
# (one per compile-time value of GENERATOR_PARAM listed in SUPPORTS), entry
# point filterlab::halide::<library>, and the registration of the variant
# "<variant backend>_<schedule>" from the template. A cuda schedule's variant
# backend is cuda or opencl: the same schedule, another GPU API. With POINT
# ("tile_x=64,tile_y=8", a sweep's point), the variant is
# "<variant backend>_<schedule>[tile_x=64+tile_y=8]"; AXES are the schedule's axes as
# declared (for `list` and the report).
function(_filterlab_schedule_variant FILTER BACKEND VARIANT_BACKEND SCHEDULE SUPPORTS GENERATOR_PARAM
         SOURCE_FILE FIRST_LINE LAST_LINE POINT AXES)
    set(LIB ${FILTER}_${VARIANT_BACKEND}_${SCHEDULE})
    set(VARIANT_NAME ${VARIANT_BACKEND}_${SCHEDULE})
    set(point_param "")
    if (POINT)
        string(REPLACE "=" "" tag "${POINT}")
        string(REPLACE "," "_" tag "${tag}")
        string(APPEND LIB "__${tag}")
        # No comma in a variant's name (results.csv): "[tile_x=64+tile_y=8]".
        string(REPLACE "," "+" spelled "${POINT}")
        string(APPEND VARIANT_NAME "[${spelled}]")
        # A generator's command line takes neither '=' nor ',' in a value.
        string(REPLACE "=" ":" encoded "${POINT}")
        string(REPLACE "," "+" encoded "${encoded}")
        set(point_param "point=${encoded}")
    endif ()
    string(REPLACE "<" "[" AXES "${AXES}")
    string(REPLACE ">" "]" AXES "${AXES}")
    # The variant's origin (Variant::origin), so that nothing parses its name.
    if (POINT)
        set(ORIGIN sweep_point)
    elseif (SCHEDULE MATCHES "^auto_")
        set(ORIGIN autoscheduler)
    elseif (FROZEN_POINT)
        set(ORIGIN frozen_point)
    else ()
        set(ORIGIN schedule)
    endif ()
    if (VARIANT_BACKEND STREQUAL "cuda")
        set(targets ${FILTERLAB_CUDA_TARGET})
    elseif (VARIANT_BACKEND STREQUAL "opencl")
        set(targets ${FILTERLAB_OPENCL_TARGET})
    else ()
        set(targets ${FILTERLAB_CPU_TARGETS})
    endif ()
    # The compile-time values: none, or those SUPPORTS gives the generator parameter.
    set(values "")
    if (GENERATOR_PARAM)
        if (NOT SUPPORTS MATCHES "(^|;)${GENERATOR_PARAM}=([0-9,]+)(;|$)")
            message(FATAL_ERROR "${SOURCE_FILE}: ${SCHEDULE} must list the ${GENERATOR_PARAM} values it supports")
        endif ()
        string(REPLACE "," ";" values "${CMAKE_MATCH_2}")
    endif ()
    set(INCLUDES "")
    set(ENTRIES "")
    set(LIBRARIES "")
    foreach (value IN LISTS values ITEMS "-")
        set(key ${BACKEND}_${SCHEDULE})
        if (value STREQUAL "-")
            if (values)
                break()
            endif ()
            set(lib ${LIB})
            set(params "")
            set(fixed "{}")
        else ()
            set(lib ${LIB}_${GENERATOR_PARAM}${value})
            set(params ${GENERATOR_PARAM}=${value})
            set(fixed "{{\"${GENERATOR_PARAM}\", ${value}}}")
            if (SCHEDULE MATCHES "^auto_")
                # One frozen autoschedule per compile-time value.
                string(APPEND key _${GENERATOR_PARAM}${value})
            endif ()
        endif ()
        set(gpu_code "")
        if (VARIANT_BACKEND STREQUAL "cuda")
            set(gpu_code DEVICE_CODE ptx_file)
        endif ()
        if (FILTERLAB_HALIDE_FROM)
            _filterlab_import_halide_library(${lib})
            set(gpu_code "")  # its PTX stays with the build that made it
        else ()
            # The entry point is filterlab::halide::<lib> (a C++ namespace:
            # installed next to a user's own code, no name can clash). Halide's
            # lowered loop nest (and its HTML view) and the PTX come with it
            # (`filterlab explain`, the report).
            add_halide_library(${lib} FROM ${FILTER}.generator
                               GENERATOR ${FILTER}
                               FUNCTION_NAME filterlab::halide::${lib}
                               FEATURES c_plus_plus_name_mangling
                               PARAMS schedule=${key} ${point_param} ${params}
                               TARGETS ${targets}
                               USE_RUNTIME filterlab_halide_runtime
                               STMT stmt_file STMT_HTML stmt_html_file ${gpu_code})
            if (NOT gpu_code AND targets MATCHES ";")
                # A multi-target library writes one loop nest per target, never
                # the <lib>.stmt it declares: ninja would rerun the generator on
                # every build. The baseline's (the last target's) stands for it.
                list(GET targets -1 baseline)
                set(baseline_stem ${CMAKE_CURRENT_BINARY_DIR}/${lib}-${baseline}-c_plus_plus_name_mangling-no_runtime)
                add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${lib}.h APPEND
                                   COMMAND ${CMAKE_COMMAND} -E copy ${baseline_stem}.stmt ${stmt_file}
                                   COMMAND ${CMAKE_COMMAND} -E copy ${baseline_stem}.stmt.html ${stmt_html_file})
            endif ()
        endif ()
        target_link_libraries(filterlab_variants PUBLIC ${lib})
        string(APPEND INCLUDES "#include \"${lib}.h\"\n")
        string(APPEND ENTRIES "{${fixed}, &filterlab::halide::${lib}}, ")
        string(APPEND LIBRARIES "\"${lib}\", ")
        set_property(GLOBAL APPEND PROPERTY FILTERLAB_HALIDE_LIBRARIES ${lib})
        if (gpu_code)
            set_property(GLOBAL APPEND PROPERTY FILTERLAB_HALIDE_PTX ${ptx_file})
        endif ()
    endforeach ()
    configure_file(${_filterlab_template} ${CMAKE_CURRENT_BINARY_DIR}/${LIB}_variant.cpp @ONLY)
    target_sources(filterlab_variants PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/${LIB}_variant.cpp)
endfunction()

# Appends one schedule to the build's manifest (filterlab_write_schedule_manifest).
function(_filterlab_manifest_entry FILTER BACKEND SCHEDULE SUPPORTS SOURCE_FILE FIRST_LINE LAST_LINE AXES)
    string(REPLACE "<" "[" AXES "${AXES}")
    string(REPLACE ">" "]" AXES "${AXES}")
    string(JSON entry SET "{}" filter "\"${FILTER}\"")
    foreach (field IN ITEMS BACKEND SCHEDULE SUPPORTS SOURCE_FILE AXES)
        string(TOLOWER ${field} key)
        string(JSON entry SET "${entry}" ${key} "\"${${field}}\"")
    endforeach ()
    string(JSON entry SET "${entry}" algorithm "\"${ALGORITHM}\"")
    string(JSON entry SET "${entry}" first_line ${FIRST_LINE})
    string(JSON entry SET "${entry}" last_line ${LAST_LINE})
    string(REPLACE ";" "&" entry "${entry}")  # one list item, whatever SUPPORTS holds
    set_property(GLOBAL APPEND PROPERTY FILTERLAB_SCHEDULE_MANIFEST "${entry}")
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/ScheduleSpaces.cmake)

# filterlab_halide_filter(<filter> [GENERATOR_PARAM <name>] SCHEDULES <schedule sources...>)
#
# Builds generators/<filter>_generator.cpp with the schedule sources, then one
# variant registration per FILTERLAB_SCHEDULE line found in them, backed by
# one static library, or, when the filter has a GENERATOR_PARAM (a parameter
# fixed at compile time, such as median's size), one library per value that
# the line's SUPPORTS string lists for it ("size=3,5,7"). The variant picks the
# library matching the parameters of each call. A schedule named in
# FILTERLAB_SWEEPS adds one variant per point of its axes
# (cmake/ScheduleSpaces.cmake); the frozen autoschedules of
# schedules/<filter>/auto/ add one variant per autoscheduler.
# schedules/<filter>/<filter>_binding.h says how to call a pipeline.
function(filterlab_halide_filter FILTER)
    cmake_parse_arguments(ARG "" "GENERATOR_PARAM" "SCHEDULES" ${ARGN})
    _filterlab_autoschedule_sources(${FILTER} auto_registrations auto_source)
    if (NOT FILTERLAB_HALIDE_FROM)
        set_property(GLOBAL APPEND PROPERTY FILTERLAB_GENERATORS ${FILTER}.generator)
        add_halide_generator(${FILTER}.generator
                             SOURCES ${PROJECT_SOURCE_DIR}/generators/${FILTER}_generator.cpp ${ARG_SCHEDULES}
                                     ${auto_source})
        target_include_directories(${FILTER}.generator PRIVATE ${PROJECT_SOURCE_DIR}/generators
                                                               ${PROJECT_SOURCE_DIR}/schedules)
    endif ()
    set(found 0)

    foreach (source IN LISTS ARG_SCHEDULES)
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${source})
        _filterlab_read_schedules(${FILTER} ${source} registrations)
        foreach (registration IN LISTS registrations)
            string(REPLACE "|" ";" fields "${registration}")
            list(GET fields 0 BACKEND)
            list(GET fields 1 SCHEDULE)
            list(GET fields 2 SUPPORTS)
            string(REPLACE "&" ";" SUPPORTS "${SUPPORTS}")
            list(GET fields 3 FIRST_LINE)
            list(GET fields 4 LAST_LINE)
            list(GET fields 5 AXES)
            # Seen by the functions called below (the variant's registration, the manifest).
            list(GET fields 6 FROZEN_POINT)
            list(GET fields 7 ALGORITHM)
            file(RELATIVE_PATH SOURCE_FILE ${PROJECT_SOURCE_DIR} ${source})
            set(facts ${SOURCE_FILE} ${FIRST_LINE} ${LAST_LINE})  # never empty
            _filterlab_schedule_variant(${FILTER} ${BACKEND} ${BACKEND} ${SCHEDULE} "${SUPPORTS}" "${ARG_GENERATOR_PARAM}"
                                        ${facts} "" "${AXES}")
            # Every GPU schedule is compiled for OpenCL too (the gpu_* directives are
            # the same), unless Halide's OpenCL code generator refuses it.
            if (BACKEND STREQUAL "cuda" AND NOT "${FILTER}/${SCHEDULE}" IN_LIST FILTERLAB_OPENCL_REFUSED)
                _filterlab_schedule_variant(${FILTER} ${BACKEND} opencl ${SCHEDULE} "${SUPPORTS}" "${ARG_GENERATOR_PARAM}"
                                            ${facts} "" "${AXES}")
            elseif (BACKEND STREQUAL "cuda")
                # How to ask the generator again (scripts/opencl_refusals.sh).
                set(value "")
                if (ARG_GENERATOR_PARAM AND SUPPORTS MATCHES "(^|;)${ARG_GENERATOR_PARAM}=([0-9]+)")
                    set(value ${ARG_GENERATOR_PARAM}=${CMAKE_MATCH_2})
                endif ()
                set_property(GLOBAL APPEND PROPERTY FILTERLAB_OPENCL_REFUSED_FOUND "${FILTER} cuda_${SCHEDULE} ${value}")
            endif ()
            _filterlab_sweep(${FILTER} ${BACKEND} ${SCHEDULE} "${AXES}" "${SUPPORTS}" "${ARG_GENERATOR_PARAM}" ${facts})
            _filterlab_manifest_entry(${FILTER} ${BACKEND} ${SCHEDULE} "${SUPPORTS}" ${SOURCE_FILE} ${FIRST_LINE}
                                      ${LAST_LINE} "${AXES}")
            math(EXPR found "${found} + 1")
        endforeach ()
    endforeach ()
    set(ALGORITHM "")  # the autoschedulers schedule the filter's first algorithm
    set(FROZEN_POINT "")
    _filterlab_autoscheduled_variants(${FILTER} "${ARG_GENERATOR_PARAM}" "${auto_registrations}" found)
    target_include_directories(filterlab_variants PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/${FILTER})
    message(STATUS "FilterLab: ${FILTER}: ${found} Halide schedules")
endfunction()

# filterlab_write_schedule_manifest(<file>): every schedule registered so far,
# as JSON of format 2 (filter, backend, schedule, supports, source_file, axes,
# first_line, last_line), for tools; the
# variants carry the same facts (Variant::source, axes).
function(filterlab_write_schedule_manifest file)
    # The GPU schedules not built for OpenCL, one "<filter> cuda_<schedule>
    # [param=value]" line each, beside the manifest; every name listed must exist.
    get_property(refused GLOBAL PROPERTY FILTERLAB_OPENCL_REFUSED_FOUND)
    list(LENGTH refused found)
    list(LENGTH FILTERLAB_OPENCL_REFUSED listed)
    if (NOT found EQUAL listed)
        message(FATAL_ERROR "FILTERLAB_OPENCL_REFUSED names ${listed} schedules, of which ${found} are GPU schedules: "
                            "${FILTERLAB_OPENCL_REFUSED}")
    endif ()
    list(JOIN refused "\n" lines)
    get_filename_component(folder ${file} DIRECTORY)
    file(CONFIGURE OUTPUT ${folder}/opencl_refused.txt CONTENT "${lines}\n")
    # Every schedule FILTERLAB_SWEEPS names must exist.
    get_property(swept GLOBAL PROPERTY FILTERLAB_SWEEPS_FOUND)
    foreach (name IN LISTS _filterlab_sweeps)
        if (NOT name STREQUAL "all" AND NOT name IN_LIST swept)
            message(FATAL_ERROR "FILTERLAB_SWEEPS names ${name}: no such schedule (filter/backend_schedule)")
        endif ()
    endforeach ()
    get_property(entries GLOBAL PROPERTY FILTERLAB_SCHEDULE_MANIFEST)
    list(JOIN entries ",\n" joined)
    string(REPLACE "&" ";" joined "${joined}")
    set(content "{\"format_version\": 2, \"schedules\": [\n${joined}\n]}\n")
    file(CONFIGURE OUTPUT ${file} CONTENT "${content}")
endfunction()

# filterlab_sanitize(<targets...>): with FILTERLAB_SANITIZE, compiles the
# targets' C++ with AddressSanitizer and UndefinedBehaviorSanitizer (every UB
# finding fatal), or with ThreadSanitizer, and links the executables and
# modules with them. CUDA device code, the generators and the Halide-generated
# libraries are not instrumented.
function(filterlab_sanitize)
    if (FILTERLAB_SANITIZE STREQUAL "address")
        set(flags -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
        set(link -fsanitize=address,undefined)
    elseif (FILTERLAB_SANITIZE STREQUAL "thread")
        set(flags -fsanitize=thread -fno-omit-frame-pointer)
        set(link -fsanitize=thread)
    else ()
        return()
    endif ()
    foreach (target IN LISTS ARGN)
        target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${flags}>)
        get_target_property(type ${target} TYPE)
        if (type MATCHES "EXECUTABLE|MODULE_LIBRARY|SHARED_LIBRARY")
            target_link_options(${target} PRIVATE ${link})
        endif ()
    endforeach ()
endfunction()

# filterlab_kernel_resources(): <build>/kernel_resources.json, the registers,
# shared memory and spills of every CUDA kernel built: the Halide libraries'
# PTX and the handwritten kernels' (scripts/kernel_resources.py, ptxas -v for
# the H100's sm_90). `filterlab report` shows them beside the timings.
function(filterlab_kernel_resources)
    if (FILTERLAB_HALIDE_FROM)
        return()  # the PTX is the other build's, and so are its resources
    endif ()
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
    get_property(halide_ptx GLOBAL PROPERTY FILTERLAB_HALIDE_PTX)
    get_property(libraries GLOBAL PROPERTY FILTERLAB_HALIDE_LIBRARIES)
    set(out ${PROJECT_BINARY_DIR}/kernel_resources.json)
    add_custom_command(OUTPUT ${out}
                       COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/kernel_resources.py ${out}
                               ${CUDAToolkit_BIN_DIR}/ptxas sm_90 --halide ${halide_ptx}
                               --handwritten $<TARGET_OBJECTS:filterlab_kernel_ptx>
                       DEPENDS ${halide_ptx} $<TARGET_OBJECTS:filterlab_kernel_ptx>
                               ${PROJECT_SOURCE_DIR}/scripts/kernel_resources.py
                       COMMENT "Kernel resources (ptxas -v, sm_90)" VERBATIM COMMAND_EXPAND_LISTS)
    add_custom_target(filterlab_kernel_resources ALL DEPENDS ${out})
    add_dependencies(filterlab_kernel_resources filterlab_kernel_ptx ${libraries})
endfunction()
