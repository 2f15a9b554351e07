#!/usr/bin/env bash
# The CPU test suite under AddressSanitizer and UndefinedBehaviorSanitizer, in
# its own build directory (build-sanitize/). Run after scripts/setup.sh (it
# uses the same venv). CUDA tests skip themselves without a GPU, as in the
# main build.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bash scripts/setup.sh --deps-only
export PATH=$root/.venv/bin:$PATH
build=$root/build-sanitize
if ! [ -f "$build/build.ninja" ]; then
    halide_root=$("$root/.venv/bin/python" -c "import halide; print(halide.install_dir())")
    nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
    [ -x "$nvcc" ] || nvcc=$(command -v nvcc || true)
    [ -n "$nvcc" ] || { echo "sanitize: the CUDA Toolkit (nvcc) is required to build" >&2; exit 1; }
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFILTERLAB_SANITIZE=ON \
        -DCMAKE_CUDA_COMPILER="$nvcc" \
        -DHalide_DIR="$halide_root/lib64/cmake/Halide" \
        -DHalideHelpers_DIR="$halide_root/lib64/cmake/HalideHelpers"
fi
cmake --build "$build"
# Any finding ends the process with a report and a failing test. The CUDA
# driver maps memory where ASan keeps its shadow gap: leave the gap open so
# that the CUDA tests run, not skip, where there is a GPU.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:protect_shadow_gap=0}
# Leaks inside the OpenCL ICD loader and PoCL are theirs (scripts/lsan.supp).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" -L sanitizers --output-on-failure
