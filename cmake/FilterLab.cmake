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

# One runtime for every AOT library: it collects the targets of the libraries
# that use it (the CUDA device runtime included).
add_halide_runtime(filterlab_halide_runtime TARGETS x86-64-linux-avx2)

# The object library every variant registration goes into; linked whole into
# the CLI and the tests, so static registrations are never dropped.
add_library(filterlab_variants OBJECT)
target_link_libraries(filterlab_variants PUBLIC filterlab_core)

set(_filterlab_template "${CMAKE_CURRENT_LIST_DIR}/halide_variant.cpp.in")

# The one reader of schedule registrations. Each line of `source` that starts
# with FILTERLAB_SCHEDULE(<filter>, <backend>, <name>, "<supports>") is one
# schedule; its body ends at the first following line that is exactly "}".
# Sets `out` to one "backend|name|supports|first line|last line" per schedule.
function(_filterlab_read_schedules FILTER source out)
    file(READ ${source} text)
    string(PREPEND text "\n")  # so that a registration on line 1 starts with a newline too
    set(pattern "^FILTERLAB_SCHEDULE\\(${FILTER}, (cpu|cuda), ([a-z0-9_]+), \"([^\"|&]*)\"\\) {$")
    set(found "")
    set(line 0)  # the line `text` starts on (0: the newline put in front)
    while (TRUE)
        string(FIND "${text}" "\nFILTERLAB_SCHEDULE" at)
        if (at EQUAL -1)
            break()
        endif ()
        math(EXPR at "${at} + 1")
        string(SUBSTRING "${text}" 0 ${at} before)
        string(SUBSTRING "${text}" ${at} -1 text)
        string(REGEX MATCHALL "\n" newlines "${before}")
        list(LENGTH newlines skipped)
        math(EXPR line "${line} + ${skipped}")
        string(FIND "${text}" "\n" end_of_header)
        string(SUBSTRING "${text}" 0 ${end_of_header} header)
        if (NOT header MATCHES "${pattern}")
            message(FATAL_ERROR "${source}:${line}: cannot read schedule registration: ${header}")
        endif ()
        # Several parameters' supports are joined by ';', a list separator here.
        string(REPLACE ";" "&" supports "${CMAKE_MATCH_3}")
        set(registration "${CMAKE_MATCH_1}|${CMAKE_MATCH_2}|${supports}|${line}")
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
        list(APPEND found "${registration}|${last}")
    endwhile ()
    set(${out} "${found}" PARENT_SCOPE)
endfunction()

# One variant of one schedule on one backend: the schedule's static library
# (one per compile-time value of GENERATOR_PARAM listed in SUPPORTS), entry
# point filterlab::halide::<library>, and the registration of the variant
# "<variant backend>_<schedule>" from the template. A cuda schedule's variant
# backend is cuda or opencl: the same schedule, another GPU API.
function(_filterlab_schedule_variant FILTER BACKEND VARIANT_BACKEND SCHEDULE SUPPORTS GENERATOR_PARAM
         SOURCE_FILE FIRST_LINE LAST_LINE)
    set(LIB ${FILTER}_${VARIANT_BACKEND}_${SCHEDULE})
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
        endif ()
        # The entry point is filterlab::halide::<lib> (a C++ namespace:
        # installed next to a user's own code, no name can clash).
        add_halide_library(${lib} FROM ${FILTER}.generator
                           GENERATOR ${FILTER}
                           FUNCTION_NAME filterlab::halide::${lib}
                           FEATURES c_plus_plus_name_mangling
                           PARAMS schedule=${BACKEND}_${SCHEDULE} ${params}
                           TARGETS ${targets}
                           USE_RUNTIME filterlab_halide_runtime)
        target_link_libraries(filterlab_variants PUBLIC ${lib})
        string(APPEND INCLUDES "#include \"${lib}.h\"\n")
        string(APPEND ENTRIES "{${fixed}, &filterlab::halide::${lib}}, ")
        string(APPEND LIBRARIES "\"${lib}\", ")
        set_property(GLOBAL APPEND PROPERTY FILTERLAB_HALIDE_LIBRARIES ${lib})
    endforeach ()
    configure_file(${_filterlab_template} ${CMAKE_CURRENT_BINARY_DIR}/${LIB}_variant.cpp @ONLY)
    target_sources(filterlab_variants PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/${LIB}_variant.cpp)
endfunction()

# filterlab_halide_filter(<filter> [GENERATOR_PARAM <name>] SCHEDULES <schedule sources...>)
#
# Builds generators/<filter>_generator.cpp with the schedule sources, then one
# variant registration per FILTERLAB_SCHEDULE line found in them, backed by
# one static library, or, when the filter has a GENERATOR_PARAM (a parameter
# fixed at compile time, such as median's size), one library per value that
# the line's SUPPORTS string lists for it ("size=3,5,7"). The variant picks the
# library matching the parameters of each call.
# schedules/<filter>/<filter>_binding.h says how to call a pipeline.
function(filterlab_halide_filter FILTER)
    cmake_parse_arguments(ARG "" "GENERATOR_PARAM" "SCHEDULES" ${ARGN})
    add_halide_generator(${FILTER}.generator
                         SOURCES ${PROJECT_SOURCE_DIR}/generators/${FILTER}_generator.cpp ${ARG_SCHEDULES})
    target_include_directories(${FILTER}.generator PRIVATE ${PROJECT_SOURCE_DIR}/generators
                                                           ${PROJECT_SOURCE_DIR}/schedules)
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
            file(RELATIVE_PATH SOURCE_FILE ${PROJECT_SOURCE_DIR} ${source})
            _filterlab_schedule_variant(${FILTER} ${BACKEND} ${BACKEND} ${SCHEDULE} "${SUPPORTS}" "${ARG_GENERATOR_PARAM}"
                                        ${SOURCE_FILE} ${FIRST_LINE} ${LAST_LINE})
            # Every GPU schedule is compiled for OpenCL too (the gpu_* directives are
            # the same), unless Halide's OpenCL code generator refuses it.
            if (BACKEND STREQUAL "cuda" AND NOT "${FILTER}/${SCHEDULE}" IN_LIST FILTERLAB_OPENCL_REFUSED)
                _filterlab_schedule_variant(${FILTER} ${BACKEND} opencl ${SCHEDULE} "${SUPPORTS}" "${ARG_GENERATOR_PARAM}"
                                            ${SOURCE_FILE} ${FIRST_LINE} ${LAST_LINE})
            elseif (BACKEND STREQUAL "cuda")
                # How to ask the generator again (scripts/opencl_refusals.sh).
                set(value "")
                if (ARG_GENERATOR_PARAM AND SUPPORTS MATCHES "(^|;)${ARG_GENERATOR_PARAM}=([0-9]+)")
                    set(value ${ARG_GENERATOR_PARAM}=${CMAKE_MATCH_2})
                endif ()
                set_property(GLOBAL APPEND PROPERTY FILTERLAB_OPENCL_REFUSED_FOUND "${FILTER} cuda_${SCHEDULE} ${value}")
            endif ()
            string(JSON entry SET "{}" filter "\"${FILTER}\"")
            foreach (field IN ITEMS BACKEND SCHEDULE SUPPORTS SOURCE_FILE)
                string(TOLOWER ${field} key)
                string(JSON entry SET "${entry}" ${key} "\"${${field}}\"")
            endforeach ()
            string(JSON entry SET "${entry}" first_line ${FIRST_LINE})
            string(JSON entry SET "${entry}" last_line ${LAST_LINE})
            string(REPLACE ";" "&" entry "${entry}")  # one list item, whatever SUPPORTS holds
            set_property(GLOBAL APPEND PROPERTY FILTERLAB_SCHEDULE_MANIFEST "${entry}")
            math(EXPR found "${found} + 1")
        endforeach ()
    endforeach ()
    target_include_directories(filterlab_variants PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/${FILTER})
    message(STATUS "FilterLab: ${FILTER}: ${found} Halide schedules")
endfunction()

# filterlab_write_schedule_manifest(<file>): every schedule registered so far,
# as JSON (filter, backend, schedule, supports, source_file, first_line,
# last_line), for tools; the variants carry the same facts (Variant::source).
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
    get_property(entries GLOBAL PROPERTY FILTERLAB_SCHEDULE_MANIFEST)
    list(JOIN entries ",\n" joined)
    string(REPLACE "&" ";" joined "${joined}")
    file(CONFIGURE OUTPUT ${file} CONTENT "{\"format_version\": 1, \"schedules\": [\n${joined}\n]}\n")
endfunction()

# filterlab_sanitize(<targets...>): with FILTERLAB_SANITIZE, compiles the
# targets' C++ with AddressSanitizer and UndefinedBehaviorSanitizer (every UB
# finding fatal) and links the executables and modules with them. CUDA device
# code, the generators and the Halide-generated libraries are not instrumented.
function(filterlab_sanitize)
    if (NOT FILTERLAB_SANITIZE)
        return()
    endif ()
    set(flags -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
    foreach (target IN LISTS ARGN)
        target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${flags}>)
        get_target_property(type ${target} TYPE)
        if (type MATCHES "EXECUTABLE|MODULE_LIBRARY|SHARED_LIBRARY")
            target_link_options(${target} PRIVATE -fsanitize=address,undefined)
        endif ()
    endforeach ()
endfunction()
