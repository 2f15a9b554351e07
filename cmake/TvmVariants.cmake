# The second language: Apache TVM schedules (schedules/<filter>/tvm_<filter>.py,
# algorithms in generators/tvm/). Each schedule's CUDA C is written at build
# time by the venv's pinned TVM (filterlab_build/tvm_generate.py), compiled by nvcc
# into the static library the manifest names (its "archive",
# filterlab_<filter>_tvm_<name>: filterlab_build/tvm_registry.py) and registered as
# the CUDA variant tvm_<name>; its launchers are the C functions
# filterlab_<library>() (runtime/languages/tvm_call.h). A swept schedule
# (FILTERLAB_SWEEPS=<filter>/tvm_<name>) adds a library and a variant
# tvm_<name>[a=1+b=2] per point, a frozen point (tvm_frozen) one of its own.
# Nothing of TVM is linked or needed at run time.

# Library `lib` as FILTERLAB_HALIDE_FROM's build made it, the file `file` (the sanitizer builds).
function(_filterlab_import_tvm_library lib file)
    set(archive ${FILTERLAB_HALIDE_FROM}/schedules/${file})
    if (NOT EXISTS ${archive})
        message(FATAL_ERROR "FILTERLAB_HALIDE_FROM: ${archive} was not built (build it first)")
    endif ()
    add_library(${lib} STATIC IMPORTED GLOBAL)
    set_target_properties(${lib} PROPERTIES IMPORTED_LOCATION ${archive})
endfunction()

# A variant's launchers (the manifest's libraries, each with its compiled
# values) as the template's DECLARATIONS, ENTRIES and LIBRARIES.
function(_filterlab_tvm_launchers libraries)
    set(DECLARATIONS "")
    set(ENTRIES "")
    set(LIBRARIES "")
    _filterlab_json_indices("${libraries}" indices)
    foreach (i IN LISTS indices)
        string(JSON library GET "${libraries}" ${i} name)
        string(JSON fixed_json GET "${libraries}" ${i} fixed)
        set(fixed "")
        _filterlab_json_indices("${fixed_json}" members)
        foreach (j IN LISTS members)
            string(JSON param MEMBER "${fixed_json}" ${j})
            string(JSON value GET "${fixed_json}" ${param})
            string(APPEND fixed "{\"${param}\", ${value}}, ")
        endforeach ()
        string(APPEND DECLARATIONS "int filterlab_${library}(const filterlab_tvm_call *);\n")
        string(APPEND ENTRIES "{{${fixed}}, &filterlab_${library}}, ")
        string(APPEND LIBRARIES "\"${library}\", ")
    endforeach ()
    set(DECLARATIONS "${DECLARATIONS}" PARENT_SCOPE)
    set(ENTRIES "${ENTRIES}" PARENT_SCOPE)
    set(LIBRARIES "${LIBRARIES}" PARENT_SCOPE)
endfunction()

# One variant of a TVM schedule of the manifest (its default point, a frozen
# point or a point of its sweep): its library and its registration.
function(_filterlab_tvm_variant entry variant_json python_sources)
    foreach (key IN ITEMS filter name supports binding algorithm)
        string(JSON ${key} GET "${entry}" ${key})
    endforeach ()
    foreach (key IN ITEMS variant origin point archive)
        string(JSON ${key} GET "${variant_json}" ${key})
    endforeach ()
    set(FILTER ${filter})
    set(NAME ${name})
    set(VARIANT_NAME ${variant})
    set(SUPPORTS ${supports})
    set(BINDING ${binding})
    set(ALGORITHM ${algorithm})
    set(ORIGIN ${origin})
    set(POINT_TEXT ${point})
    set(LIB ${archive})  # named by the registry (filterlab_build/tvm_registry.py: archive), not here
    set(ARCHIVE_FILE ${CMAKE_STATIC_LIBRARY_PREFIX}${LIB}${CMAKE_STATIC_LIBRARY_SUFFIX})
    string(JSON axes GET "${entry}" axes)
    _filterlab_axes_cxx("${axes}" AXES)
    string(JSON SOURCE_FILE GET "${entry}" source file)
    string(JSON FIRST_LINE GET "${entry}" source first_line)
    string(JSON LAST_LINE GET "${entry}" source last_line)
    string(JSON libraries GET "${variant_json}" libraries)
    _filterlab_tvm_launchers("${libraries}")
    if (FILTERLAB_HALIDE_FROM)
        _filterlab_import_tvm_library(${LIB} ${ARCHIVE_FILE})
    else ()
        set(point_argument "")
        if (ORIGIN STREQUAL "sweep_point")
            set(point_argument --point ${POINT_TEXT})
        endif ()
        set(cu ${CMAKE_CURRENT_BINARY_DIR}/tvm/${LIB}.cu)
        add_custom_command(OUTPUT ${cu}
                           COMMAND ${FILTERLAB_PYTHON} -m filterlab_build.tvm_generate --schedule ${filter}/${name}
                                   ${point_argument} --shapes "${FILTERLAB_SHAPES_NORMAL}" --out ${cu}
                           DEPENDS ${python_sources}
                           COMMENT "TVM: generating the CUDA C of ${filter}/${variant}")
        add_library(${LIB} STATIC ${cu})
        target_include_directories(${LIB} PRIVATE ${PROJECT_SOURCE_DIR}/runtime/languages)
        # TVM's C leaves unused common subexpressions: not ours to tidy.
        target_compile_options(${LIB} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-diag-suppress=177>)
    endif ()
    target_link_libraries(filterlab_variants PUBLIC ${LIB})
    set_property(GLOBAL APPEND PROPERTY FILTERLAB_TVM_LIBRARIES ${LIB})
    set(EXACT_SHAPES "${FILTERLAB_SHAPES_CXX}")  # every library, compiled for each (filterlab_build/tvm_generate.py --shapes)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/tvm_variant.cpp.in ${CMAKE_CURRENT_BINARY_DIR}/${LIB}_variant.cpp @ONLY)
    target_sources(filterlab_variants PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/${LIB}_variant.cpp)
    set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${LIB}_variant.cpp TARGET_DIRECTORY filterlab_variants
                                PROPERTIES UNITY_GROUP ${FILTER}_tvm)
    set_property(GLOBAL APPEND PROPERTY FILTERLAB_BUILT_VARIANTS "${FILTER}/${VARIANT_NAME}")
endfunction()

# One TVM schedule of the manifest: its variants this build builds (the
# frontier's, all with FILTERLAB_ALL_SCHEDULES, and a swept schedule's with
# its sweep's points).
function(_filterlab_tvm_schedule entry python_sources)
    string(JSON filter GET "${entry}" filter)
    string(JSON frontier GET "${entry}" frontier)
    string(JSON swept GET "${entry}" swept)
    if (NOT FILTERLAB_ALL_SCHEDULES AND frontier STREQUAL "" AND NOT swept)
        return()
    endif ()
    string(JSON variants GET "${entry}" variants)
    _filterlab_json_indices("${variants}" indices)
    foreach (i IN LISTS indices)
        string(JSON variant GET "${variants}" ${i})
        _filterlab_tvm_variant("${entry}" "${variant}" "${python_sources}")
    endforeach ()
    list(LENGTH indices count)
    if (swept)
        math(EXPR points "${count} - 1")
        string(JSON name GET "${entry}" name)
        message(STATUS "FilterLab: sweep ${filter}/tvm_${name}: ${points} points")
    endif ()
    string(JSON first GET "${variants}" 0 variant)
    set(built_tvm ${built_tvm} ${filter}/${first} PARENT_SCOPE)
endfunction()

# Reads every TVM registration (filterlab_build/tvm_generate.py --manifest) and
# declares the schedules this build compiles: the frontier's (a registration
# that says `frontier`), or all of them with FILTERLAB_ALL_SCHEDULES.
function(filterlab_tvm_schedules)
    set(manifest ${PROJECT_BINARY_DIR}/tvm_manifest.json)
    # What the generation reads: the algorithms, the registrations and their
    # helpers, the build machinery that reads them and writes the CUDA C (the
    # registry, the grammar of axes and points, the launchers' writer), and the
    # contract's ranges (plane.py: contract_range; the image shapes are the
    # build's own setting, FILTERLAB_SHAPES, on the command line).
    file(GLOB python_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/generators/tvm/*.py
         ${PROJECT_SOURCE_DIR}/schedules/tvm_*.py ${PROJECT_SOURCE_DIR}/schedules/*/tvm_*.py)
    foreach (module IN ITEMS tvm_generate tvm_registry schedule_grammar cuda_source)
        list(APPEND python_sources ${PROJECT_SOURCE_DIR}/filterlab_build/${module}.py)
    endforeach ()
    list(APPEND python_sources ${PROJECT_SOURCE_DIR}/runtime/base/contract_ranges.h
         ${PROJECT_SOURCE_DIR}/runtime/base/image_shape.h)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${python_sources})
    execute_process(COMMAND ${FILTERLAB_PYTHON} -m filterlab_build.tvm_generate --manifest ${manifest}
                            --sweeps "${FILTERLAB_SWEEPS}"
                    RESULT_VARIABLE status ERROR_VARIABLE error)
    if (NOT status EQUAL 0)
        message(FATAL_ERROR "TVM schedules: ${error}(scripts/setup.sh installs the pinned apache-tvm into the venv)")
    endif ()
    file(READ ${manifest} json)
    string(JSON count LENGTH "${json}")
    set(built_tvm "")
    if (count GREATER 0)
        math(EXPR last "${count} - 1")
        foreach (i RANGE ${last})
            string(JSON entry GET "${json}" ${i})
            _filterlab_tvm_schedule("${entry}" "${python_sources}")
        endforeach ()
    endif ()
    list(LENGTH built_tvm built)
    message(STATUS "FilterLab: ${built} of ${count} TVM schedules built (${manifest})")
endfunction()
