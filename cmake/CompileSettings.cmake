# How our own code is compiled: quickly where nothing is timed, in unity
# batches, under a sanitizer, and the kernels' resources as ptxas reports them.
# Included by FilterLab.cmake.

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
    get_property(libraries GLOBAL PROPERTY FILTERLAB_HALIDE_PTX_LIBRARIES)
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
