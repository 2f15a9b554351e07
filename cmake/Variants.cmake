# The one path from the schedule registrations of both languages to their
# variants: filterlab_build/manifest.py reads them and the build's options at
# configure time into build/variants.json (format 6, docs/extending.md), and
# filterlab_variants makes every archive and registration it lists. Every
# name comes from the manifest: nothing here composes one. What differs by
# language is how one archive is made from its recipe (Halide's generator,
# TVM's CUDA C and nvcc) and the registration's template, which the manifest
# names. Included by cmake/FilterLab.cmake.

# Which schedules' spaces to build, point by point: "all", or
# <filter>/<target>_<schedule> names of either language, comma-separated
# ("box/cuda_tile,gaussian/cpu_tiled,gaussian/tvm_rows8";
# filterlab_build/sweeps.py). Empty (the default): none, and the build
# compiles each schedule's default point only.
set(FILTERLAB_SWEEPS "" CACHE STRING "Schedules whose every point is built: all, or filter/target_schedule,...")

# The indices of the JSON array `array` ("0;1;2"; empty for []), for foreach (i IN LISTS ...).
function(_filterlab_json_indices array out)
    set(indices "")
    string(JSON count LENGTH "${array}")
    if (count GREATER 0)
        math(EXPR last "${count} - 1")
        foreach (i RANGE ${last})
            list(APPEND indices ${i})
        endforeach ()
    endif ()
    set(${out} "${indices}" PARENT_SCOPE)
endfunction()

# The JSON array of strings `array` as a CMake list.
function(_filterlab_json_list array out)
    set(items "")
    _filterlab_json_indices("${array}" indices)
    foreach (i IN LISTS indices)
        string(JSON item GET "${array}" ${i})
        list(APPEND items "${item}")
    endforeach ()
    set(${out} "${items}" PARENT_SCOPE)
endfunction()

# An archive of a Halide variant from its recipe: the filter's generator
# run by add_halide_library with the recipe's parameters and targets, its
# entry point the recipe's (a C++ namespace, filterlab::halide::<library>:
# installed next to a user's own code, no name can clash). Halide's lowered
# loop nest (and, with FILTERLAB_STMT_HTML, its HTML view) and the PTX come
# with it (`filterlab explain`, the report, the kernels' resources).
function(_filterlab_halide_archive target header recipe)
    foreach (field IN ITEMS generator function_name device_code register_cap shape_report)
        string(JSON ${field} GET "${recipe}" ${field})
    endforeach ()
    string(JSON params GET "${recipe}" params)
    _filterlab_json_list("${params}" params)
    if (shape_report)  # the generator says there whether Halide took the shape (generators/word_view.h: fix_shape)
        list(APPEND params shape_report=${CMAKE_CURRENT_BINARY_DIR}/${shape_report})
    endif ()
    string(JSON targets GET "${recipe}" targets)
    _filterlab_json_list("${targets}" targets)
    set(html "")
    if (FILTERLAB_STMT_HTML)
        set(html STMT_HTML stmt_html_file)
    endif ()
    set(gpu_code "")
    if (device_code)
        set(gpu_code DEVICE_CODE ptx_file)
    endif ()
    add_halide_library(${target} FROM ${generator}.generator GENERATOR ${generator} FUNCTION_NAME ${function_name}
                       FEATURES c_plus_plus_name_mangling PARAMS ${params} TARGETS ${targets}
                       USE_RUNTIME filterlab_halide_runtime STMT stmt_file ${html} ${gpu_code})
    if (device_code)
        # The register cap its module is loaded with (runtime/languages/halide_cuda_launch.h).
        set_property(GLOBAL APPEND PROPERTY FILTERLAB_HALIDE_PTX ${ptx_file})
        set_property(GLOBAL APPEND PROPERTY FILTERLAB_HALIDE_PTX_CAPPED ${ptx_file}@${register_cap})
        set_property(GLOBAL APPEND PROPERTY FILTERLAB_HALIDE_PTX_LIBRARIES ${target})
    elseif (targets MATCHES ";")
        # A multi-target library writes one loop nest per target, never the
        # <target>.stmt it declares: ninja would rerun the generator on every
        # build. The baseline's (the last target's) stands for it.
        list(GET targets -1 baseline)
        set(baseline_stem ${CMAKE_CURRENT_BINARY_DIR}/${target}-${baseline}-c_plus_plus_name_mangling-no_runtime)
        set(header ${CMAKE_CURRENT_BINARY_DIR}/${header})
        add_custom_command(OUTPUT ${header} APPEND COMMAND ${CMAKE_COMMAND} -E copy ${baseline_stem}.stmt ${stmt_file})
        if (html)
            add_custom_command(OUTPUT ${header} APPEND
                               COMMAND ${CMAKE_COMMAND} -E copy ${baseline_stem}.stmt.html ${stmt_html_file})
        endif ()
    endif ()
endfunction()

# An archive of a TVM variant from its recipe: its CUDA C written by the
# venv's pinned TVM (filterlab_build/tvm_generate.py, the recipe's
# arguments) and compiled by nvcc; its launchers are C functions
# (runtime/languages/tvm_call.h). Nothing of TVM is linked or needed at run time.
function(_filterlab_tvm_archive target recipe python_sources)
    string(JSON source GET "${recipe}" source)
    string(JSON arguments GET "${recipe}" tvm_generate)
    _filterlab_json_list("${arguments}" arguments)
    set(cu ${CMAKE_CURRENT_BINARY_DIR}/${source})
    add_custom_command(OUTPUT ${cu}
                       COMMAND ${FILTERLAB_PYTHON} -m filterlab_build.tvm_generate ${arguments} --out ${cu}
                       DEPENDS ${python_sources}
                       COMMENT "TVM: generating ${source}")
    add_library(${target} STATIC ${cu})
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/runtime/languages)
    # TVM's C leaves unused common subexpressions: not ours to tidy.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-diag-suppress=177>)
endfunction()

# An archive as FILTERLAB_HALIDE_FROM's build made it (the sanitizer builds):
# its file, and a Halide archive's header beside it.
function(_filterlab_imported_archive target file header language)
    set(dir ${FILTERLAB_HALIDE_FROM}/schedules)
    if (NOT EXISTS ${dir}/${file} OR (header AND NOT EXISTS ${dir}/${header}))
        message(FATAL_ERROR "FILTERLAB_HALIDE_FROM: ${target} was not built in ${FILTERLAB_HALIDE_FROM} (build it first)")
    endif ()
    add_library(${target} STATIC IMPORTED GLOBAL)
    set_target_properties(${target} PROPERTIES IMPORTED_LOCATION ${dir}/${file})
    if (language STREQUAL "halide")
        set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${dir})
        target_link_libraries(${target} INTERFACE filterlab_halide_runtime)
    endif ()
endfunction()

# One archive of a variant (the manifest's "archives"): made here, or taken
# from FILTERLAB_HALIDE_FROM; linked into the variants; listed for the
# installed package (cmake/Install.cmake) as
# <language>:<target>:<package target>:<file>:<header>.
function(_filterlab_archive archive language python_sources)
    foreach (field IN ITEMS target file package_target header recipe)
        string(JSON ${field} GET "${archive}" ${field})  # header: "" for a TVM archive (tvm_call.h declares its launchers)
    endforeach ()
    if (FILTERLAB_HALIDE_FROM)
        _filterlab_imported_archive(${target} ${file} "${header}" ${language})
    elseif (language STREQUAL "halide")
        _filterlab_halide_archive(${target} ${header} "${recipe}")
    else ()
        _filterlab_tvm_archive(${target} "${recipe}" "${python_sources}")
    endif ()
    target_link_libraries(filterlab_variants PUBLIC ${target})
    set_property(GLOBAL APPEND PROPERTY FILTERLAB_ARCHIVES "${language}:${target}:${package_target}:${file}:${header}")
endfunction()

# One variant of the manifest (a line of its "variants"): its archives, and
# its registration, configured from the template the manifest names with
# the values it gives, compiled in a unity batch with its filter's others.
function(_filterlab_variant json python_sources)
    foreach (field IN ITEMS variant language filter archives registration)
        string(JSON ${field} GET "${json}" ${field})
    endforeach ()
    _filterlab_json_indices("${archives}" indices)
    foreach (i IN LISTS indices)
        string(JSON archive GET "${archives}" ${i})
        _filterlab_archive("${archive}" ${language} "${python_sources}")
    endforeach ()
    foreach (field IN ITEMS template source unity_group values)
        string(JSON ${field} GET "${registration}" ${field})
    endforeach ()
    string(JSON count LENGTH "${values}")
    math(EXPR last "${count} - 1")
    foreach (i RANGE ${last})
        string(JSON key MEMBER "${values}" ${i})
        string(JSON ${key} GET "${values}" ${key})
    endforeach ()
    configure_file(${PROJECT_SOURCE_DIR}/cmake/${template} ${CMAKE_CURRENT_BINARY_DIR}/${source} @ONLY)
    target_sources(filterlab_variants PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/${source})
    set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${source} TARGET_DIRECTORY filterlab_variants
                                PROPERTIES UNITY_GROUP ${unity_group})
    set_property(GLOBAL APPEND PROPERTY FILTERLAB_BUILT_VARIANTS "${filter}/${variant}")
endfunction()

# The generator source that registers the frozen autoschedules of the
# manifest ("autoschedules"), one file per filter,
# <build>/schedules/<filter>_autoschedules.cpp (empty for a filter without any).
# (A schedule Halide only described, *.schedule.txt, is for reading: its
# autoscheduler is listed in refused.txt.)
function(_filterlab_autoschedule_sources autoschedules)
    get_property(filters GLOBAL PROPERTY FILTERLAB_HALIDE_FILTERS)
    foreach (filter IN LISTS filters)
        set(text_${filter} "// Generated by cmake/Variants.cmake from variants.json. Do not edit.\n")
        string(APPEND text_${filter} "#include \"${filter}.h\"\n#include \"schedule_registry.h\"\n")
    endforeach ()
    _filterlab_json_indices("${autoschedules}" indices)
    foreach (i IN LISTS indices)
        foreach (field IN ITEMS filter backend include name function)
            string(JSON ${field} GET "${autoschedules}" ${i} ${field})
        endforeach ()
        string(APPEND text_${filter} "#include \"${PROJECT_SOURCE_DIR}/${include}\"\n"
                                     "FILTERLAB_AUTOSCHEDULED(${filter}, ${backend}, ${name}, ${function});\n")
    endforeach ()
    foreach (filter IN LISTS filters)
        file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${filter}_autoschedules.cpp CONTENT "${text_${filter}}")
    endforeach ()
endfunction()

# What the TVM generation reads: the algorithms, the registrations and their
# helpers, the build machinery that reads them and writes the CUDA C, and the
# contract's ranges (plane.py: contract_range) and the aligned class
# (image_shape.h); the image shapes are the recipe's arguments.
function(_filterlab_tvm_sources out)
    file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/generators/tvm/*.py
         ${PROJECT_SOURCE_DIR}/schedules/tvm_*.py ${PROJECT_SOURCE_DIR}/schedules/*/tvm_*.py)
    foreach (module IN ITEMS tvm_generate tvm_registry library_names schedule_grammar shapes cuda_source)
        list(APPEND sources ${PROJECT_SOURCE_DIR}/filterlab_build/${module}.py)
    endforeach ()
    list(APPEND sources ${PROJECT_SOURCE_DIR}/runtime/base/contract_ranges.h
                        ${PROJECT_SOURCE_DIR}/runtime/base/image_shape.h)
    set(${out} "${sources}" PARENT_SCOPE)
endfunction()

# filterlab_variants(<manifest>): writes <manifest> (filterlab_build/manifest.py)
# from the Halide schedule sources of the filters declared so far
# (filterlab_halide_filter), the TVM registrations and the build's options,
# and declares every archive and variant it lists: this build's (the
# frontier, or every schedule with FILTERLAB_ALL_SCHEDULES; the points of
# FILTERLAB_SWEEPS). The global property FILTERLAB_BUILT_VARIANTS lists them,
# "<filter>/<variant>", and FILTERLAB_BUILT_SHAPES the image shapes, as
# the manifest read them (tests/CMakeLists.txt reads both).
function(filterlab_variants manifest)
    get_property(sources GLOBAL PROPERTY FILTERLAB_SCHEDULE_SOURCES)
    get_property(compile_time GLOBAL PROPERTY FILTERLAB_COMPILE_TIME)
    _filterlab_tvm_sources(python_sources)
    set(readers "")
    foreach (module IN ITEMS manifest halide_registrations halide_variants tvm_variants registrations sweeps)
        list(APPEND readers ${PROJECT_SOURCE_DIR}/filterlab_build/${module}.py)
    endforeach ()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${readers} ${python_sources})
    set(all_schedules "")
    if (FILTERLAB_ALL_SCHEDULES)
        set(all_schedules --all-schedules)
    endif ()
    execute_process(COMMAND ${FILTERLAB_PYTHON} -m filterlab_build.manifest --source-dir ${PROJECT_SOURCE_DIR}
                            --out ${manifest} --sweeps "${FILTERLAB_SWEEPS}" --shapes "${FILTERLAB_SHAPES}"
                            ${all_schedules} --halide-target "cpu=${FILTERLAB_CPU_TARGETS}"
                            --halide-target "cuda=${FILTERLAB_CUDA_TARGET}"
                            --halide-target "opencl=${FILTERLAB_OPENCL_TARGET}" ${compile_time} ${sources}
                    RESULT_VARIABLE status OUTPUT_VARIABLE decided ERROR_VARIABLE error)
    if (NOT status EQUAL 0)
        message(FATAL_ERROR "${error}")
    endif ()
    string(REGEX REPLACE "\n$" "" decided "${decided}")
    string(REPLACE "\n" ";" decided "${decided}")
    foreach (line IN LISTS decided)
        message(STATUS "FilterLab: ${line}")
    endforeach ()
    file(READ ${manifest} json)  # the whole document, parsed twice; each variant is read from its own line
    string(JSON autoschedules GET "${json}" autoschedules)
    _filterlab_autoschedule_sources("${autoschedules}")
    string(JSON shapes GET "${json}" options shapes)
    _filterlab_json_list("${shapes}" shapes)
    list(JOIN shapes "," shapes)
    set_property(GLOBAL PROPERTY FILTERLAB_BUILT_SHAPES "${shapes}")
    file(STRINGS ${manifest} variants REGEX "^  {\"variant\": ")
    foreach (line IN LISTS variants)
        string(REGEX REPLACE ",$" "" variant "${line}")
        _filterlab_variant("${variant}" "${python_sources}")
    endforeach ()
endfunction()
