# Reading the schedule manifest (filterlab_build/schedule_manifest.py's JSON, format 5,
# docs/extending.md) into declarations: each entry's facts as the variables
# the variant template (cmake/halide_variant.cpp.in) reads, and the variants
# this build builds of it (_filterlab_schedule_variant). Included by
# cmake/FilterLab.cmake; filterlab_halide_schedules reads the manifest.

# A point of the manifest ({"values", "text", "parameter", "tag"}: its spelling
# "a=1+b=2" and the forms filterlab_build/schedule_grammar.py derived from it, the
# generator parameter "a:1+b:2" and the library tag "a1_b2") as
# <prefix>_text, <prefix>_parameter and <prefix>_tag.
function(_filterlab_point_forms point prefix)
    foreach (form IN ITEMS text parameter tag)
        string(JSON value GET "${point}" ${form})
        set(${prefix}_${form} "${value}" PARENT_SCOPE)
    endforeach ()
endfunction()

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

# The manifest's supports ([{"param", "values"} or {"param", "min", "max"}])
# as the registry's spec ("size=3,5", "radius=1..7", joined by ';').
function(_filterlab_supports_spec supports out)
    set(spec "")
    _filterlab_json_indices("${supports}" indices)
    foreach (i IN LISTS indices)
        string(JSON param GET "${supports}" ${i} param)
        string(JSON values ERROR_VARIABLE ranged GET "${supports}" ${i} values)
        if (ranged)
            string(JSON min GET "${supports}" ${i} min)
            string(JSON max GET "${supports}" ${i} max)
            list(APPEND spec "${param}=${min}..${max}")
        else ()
            string(REGEX REPLACE "[][ \n]" "" values "${values}")
            list(APPEND spec "${param}=${values}")
        endif ()
    endforeach ()
    set(${out} "${spec}" PARENT_SCOPE)
endfunction()

# The manifest's axes as Variant::axes' initializer: {"name", {values}, default}, ...
function(_filterlab_axes_cxx axes out)
    set(cxx "")
    _filterlab_json_indices("${axes}" indices)
    foreach (i IN LISTS indices)
        string(JSON name GET "${axes}" ${i} name)
        string(JSON values GET "${axes}" ${i} values)
        string(JSON default GET "${axes}" ${i} default)
        string(REGEX REPLACE "[][ \n]" "" values "${values}")
        string(REPLACE "," ", " values "${values}")
        list(APPEND cxx "{\"${name}\", {${values}}, ${default}}")
    endforeach ()
    list(JOIN cxx ", " cxx)
    set(${out} "${cxx}" PARENT_SCOPE)
endfunction()

# Declares the variants of one schedule of the manifest that this build
# builds ("built"): one per target (variant <target>_<name>, library
# <filter>_<target>_<name>), and with a sweep one per point on its first
# target (variant <target>_<name>[a=1+b=2], library <filter>_<target>_<name>__a1_b2).
function(_filterlab_declare_schedule entry)
    string(JSON built GET "${entry}" built)
    if (NOT built)
        return()
    endif ()
    foreach (field IN ITEMS filter name backend origin reads writes)
        string(TOUPPER ${field} variable)
        string(JSON ${variable} GET "${entry}" ${field})
    endforeach ()
    # The name the runtime knows the algorithm by (FilterInfo::algorithms); empty
    # for an autoschedule: the filter's default.
    string(JSON ALGORITHM GET "${entry}" algorithm_key)  # null: ""
    foreach (field IN ITEMS file first_line last_line)
        string(TOUPPER ${field} variable)
        string(JSON ${variable} GET "${entry}" source ${field})
    endforeach ()
    set(SOURCE_FILE ${FILE})
    string(JSON supports GET "${entry}" supports)
    _filterlab_supports_spec("${supports}" SUPPORTS)
    set(PARAM "")
    set(VALUES "")
    string(JSON compile_time GET "${entry}" compile_time)
    if (compile_time)
        string(JSON PARAM GET "${compile_time}" param)
        string(JSON values GET "${compile_time}" values)
        string(REGEX REPLACE "[][ \n]" "" values "${values}")
        string(REPLACE "," ";" VALUES "${values}")
    endif ()
    string(JSON axes GET "${entry}" axes)
    _filterlab_axes_cxx("${axes}" AXES)
    string(JSON point GET "${entry}" point)
    _filterlab_point_forms("${point}" point)
    string(JSON targets GET "${entry}" targets)
    string(REGEX REPLACE "[][\" \n]" "" targets "${targets}")
    string(REPLACE "," ";" targets "${targets}")
    foreach (target IN LISTS targets)
        _filterlab_schedule_variant(${target} ${target}_${NAME} ${FILTER}_${target}_${NAME} ${ORIGIN}
                                    "${point_parameter}" "${point_text}")
    endforeach ()
    string(JSON sweep ERROR_VARIABLE no_sweep GET "${entry}" sweep)
    if (NOT no_sweep)
        list(GET targets 0 target)  # a GPU schedule's sweep is built for CUDA, not repeated for OpenCL
        string(JSON count LENGTH "${sweep}")
        math(EXPR last "${count} - 1")
        foreach (i RANGE ${last})
            string(JSON one GET "${sweep}" ${i})
            _filterlab_point_forms("${one}" point)
            _filterlab_schedule_variant(${target} "${target}_${NAME}[${point_text}]"
                                        ${FILTER}_${target}_${NAME}__${point_tag} sweep_point
                                        "${point_parameter}" "${point_text}")
        endforeach ()
        message(STATUS "FilterLab: sweep ${FILTER}/${target}_${NAME}: ${count} points")
    endif ()
endfunction()
