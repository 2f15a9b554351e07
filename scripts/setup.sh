#!/usr/bin/env bash
# Installs what FilterLab needs (Debian packages, a venv with Halide 21, cmake,
# ninja, matplotlib (for `filterlab report`'s plots), NumPy and OpenCV (for
# scripts/peers_python.py) from PyPI), then
# configures and builds build/. Quick when all is there. With --deps-only it
# stops after installing.
#
# FILTERLAB_ALL_SCHEDULES=ON builds every Halide schedule in the tree (CI
# does); unset or OFF, the frontier only (the schedules whose registration
# says FRONTIER, its FRONTIER frozen points and every autoschedule but those
# schedules/<filter>/auto/off_frontier.txt names: docs/extending.md). A build/ configured with the other value is configured
# again. FILTERLAB_BUILD_TARGET builds one target rather than all (main.sh:
# filterlab_tools, the CLI without the tests). FILTERLAB_CPU_TARGETS, when
# set, replaces the CPU libraries' Halide targets of a new build/ (CI: AVX2).
# FILTERLAB_SHAPES, when set, is the image shapes every DSL CUDA variant is
# also compiled for (cmake/HalideSettings.cmake; default 1920x1080,aligned); a build/
# configured with others is configured again.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

packages=(g++ make cmake pkg-config python3-venv libpng-dev zlib1g-dev doctest-dev libcli11-dev libfmt-dev nlohmann-json3-dev libopencv-dev
    ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
if ! [ -x "$nvcc" ]; then
    nvcc=$(command -v nvcc || true)
fi
if [ -z "$nvcc" ]; then
    echo "setup: the CUDA Toolkit (nvcc) is required to build, and was not found" >&2
    exit 1
fi

venv=$root/.venv
stamp=$venv/filterlab-requirements
requirements="halide==21.0.0 apache-tvm==0.27.0.post1 apache-tvm-ffi==0.1.14.post1 cmake>=3.28 ninja matplotlib numpy opencv-python-headless"
if ! [ -f "$stamp" ] || [ "$(cat "$stamp")" != "$requirements" ]; then
    echo "setup: installing into $venv: $requirements"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install -q --upgrade pip
    # shellcheck disable=SC2086
    "$venv/bin/pip" install -q $requirements
    echo "$requirements" >"$stamp"
fi
export PATH=$venv/bin:$PATH
[ "${1:-}" = "--deps-only" ] && exit 0

case ${FILTERLAB_ALL_SCHEDULES:-OFF} in
[Oo][Nn] | 1 | [Tt][Rr][Uu][Ee] | [Yy][Ee][Ss]) all_schedules=ON ;;
[Oo][Ff][Ff] | 0 | [Ff][Aa][Ll][Ss][Ee] | [Nn][Oo]) all_schedules=OFF ;;
*) echo "setup: FILTERLAB_ALL_SCHEDULES is ON or OFF, not '$FILTERLAB_ALL_SCHEDULES'" >&2; exit 2 ;;
esac
build=$root/build
if ! [ -f "$build/build.ninja" ]; then
    halide_root=$("$venv/bin/python" -c "import halide; print(halide.install_dir())")
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_COMPILER="$nvcc" \
        -DHalide_DIR="$halide_root/lib64/cmake/Halide" \
        -DHalideHelpers_DIR="$halide_root/lib64/cmake/HalideHelpers" \
        -DFILTERLAB_SWEEPS="${FILTERLAB_SWEEPS-box/cpu_sliding}" \
        -DFILTERLAB_ALL_SCHEDULES="$all_schedules" \
        ${FILTERLAB_SHAPES+-DFILTERLAB_SHAPES="$FILTERLAB_SHAPES"} \
        ${FILTERLAB_CPU_TARGETS:+-DFILTERLAB_CPU_TARGETS="$FILTERLAB_CPU_TARGETS"}
else
    cached=$(sed -n 's/^FILTERLAB_ALL_SCHEDULES:[A-Z]*=//p' "$build/CMakeCache.txt")
    if [ "$cached" != "$all_schedules" ]; then
        echo "setup: FILTERLAB_ALL_SCHEDULES=$all_schedules (build/ has ${cached:-none}): configuring build/ again"
        cmake -S "$root" -B "$build" -DFILTERLAB_ALL_SCHEDULES="$all_schedules"
    fi
    cached=$(sed -n 's/^FILTERLAB_SHAPES:[A-Z]*=//p' "$build/CMakeCache.txt")
    if [ -n "${FILTERLAB_SHAPES+set}" ] && [ "$cached" != "$FILTERLAB_SHAPES" ]; then
        echo "setup: FILTERLAB_SHAPES=$FILTERLAB_SHAPES (build/ has ${cached:-none}): configuring build/ again"
        cmake -S "$root" -B "$build" -DFILTERLAB_SHAPES="$FILTERLAB_SHAPES"
    fi
fi
cmake --build "$build" ${FILTERLAB_BUILD_TARGET:+--target "$FILTERLAB_BUILD_TARGET"}
