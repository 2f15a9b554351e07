#!/usr/bin/env bash
# The test suite with our own code under a sanitizer, in its own build
# directory:
#   bash scripts/sanitize.sh          ASan and UBSan (build-sanitize/, tests labelled `sanitizers`)
#   bash scripts/sanitize.sh thread   ThreadSanitizer (build-tsan/, the concurrency tests, labelled `tsan`)
# Generated Halide code is not instrumented, so these builds link the main
# build's Halide libraries (FILTERLAB_HALIDE_FROM=build) instead of generating
# them again: scripts/setup.sh builds build/ first when needed. CUDA tests skip
# themselves without a GPU, as in the main build.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mode=${1:-address}
case $mode in
address) build=$root/build-sanitize label=sanitizers targets=() ;;
thread) build=$root/build-tsan label=tsan targets=(--target test_concurrency test_threads test_halide_launch test_streamed) ;;  # what its tests run
*) echo "sanitize: the mode is address or thread, not '$mode'" >&2; exit 2 ;;
esac
bash scripts/setup.sh  # the main build, whose Halide libraries are linked here
export PATH=$root/.venv/bin:$PATH
if ! [ -f "$build/build.ninja" ]; then
    halide_root=$("$root/.venv/bin/python" -c "import halide; print(halide.install_dir())")
    nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
    [ -x "$nvcc" ] || nvcc=$(command -v nvcc || true)
    [ -n "$nvcc" ] || { echo "sanitize: the CUDA Toolkit (nvcc) is required to build" >&2; exit 1; }
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFILTERLAB_SANITIZE="$mode" \
        -DFILTERLAB_HALIDE_FROM="$root/build" "${launcher[@]}" \
        -DCMAKE_CUDA_COMPILER="$nvcc" \
        -DHalide_DIR="$halide_root/lib64/cmake/Halide" \
        -DHalideHelpers_DIR="$halide_root/lib64/cmake/HalideHelpers"
fi
cmake --build "$build" "${targets[@]}"
# Any finding ends the process with a report and a failing test. The CUDA
# driver maps memory where ASan keeps its shadow gap: leave the gap open so
# that the CUDA tests run, not skip, where there is a GPU.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:protect_shadow_gap=0}
# Leaks inside the OpenCL ICD loader and PoCL are theirs (scripts/lsan.supp).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# A data race fails the test (exit 66); scripts/tsan.supp names what is not ours
# (a longer history, so that both stacks of a report are restored and matched).
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:exitcode=66:history_size=7:second_deadlock_stack=1:suppressions=$root/scripts/tsan.supp}
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}  # as scripts/test.sh says
ctest --test-dir "$build" -L "$label" --output-on-failure --parallel "$(nproc)"
