# Build helpers: Halide targets, the shared runtime, the filters' generators,
# and the one path from the schedule registrations of both languages to
# their variants (cmake/Variants.cmake; generators/schedule_registry.h).

include(${CMAKE_CURRENT_LIST_DIR}/HalideSettings.cmake)

# The object library every variant registration goes into; linked whole into
# the CLI and the tests, so static registrations are never dropped.
add_library(filterlab_variants OBJECT)
target_link_libraries(filterlab_variants PUBLIC filterlab_languages)
# The registrations generated from the templates (one small file per variant,
# each parsing the same headers) compile in batches, one per filter and
# backend (the manifest's unity_group); the kernels and the rest compile one
# by one (UNITY_GROUP unset).
set_target_properties(filterlab_variants PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)

include(${CMAKE_CURRENT_LIST_DIR}/Variants.cmake)

# filterlab_halide_filter(<filter> [GENERATOR_PARAM <name> VALUES <values...>] SCHEDULES <sources...>):
# builds generators/<filter>_generator.cpp with the schedule sources and the
# filter's frozen autoschedules (schedules/<filter>/auto/), and hands the
# sources to filterlab_variants (cmake/Variants.cmake), which declares their
# variants. A
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

# `cmake --build build --target autoschedule`: runs the autoschedulers again
# and rewrites schedules/*/auto/ (review the diff, then rebuild).
function(filterlab_autoschedule_target)
    if (FILTERLAB_HALIDE_FROM)
        return()  # no generators here: the autoschedulers run in the build that has them
    endif ()
    get_property(generators GLOBAL PROPERTY FILTERLAB_GENERATORS)
    add_custom_target(autoschedule
                      COMMAND ${FILTERLAB_PYTHON} -m filterlab_build.autoschedule ${PROJECT_BINARY_DIR}
                              --plugins $<TARGET_FILE_DIR:Halide::Adams2019>
                      DEPENDS ${generators}
                      USES_TERMINAL
                      COMMENT "Running Halide's autoschedulers (filterlab_build/autoschedule.py)")
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/CompileSettings.cmake)
