#!/usr/bin/env bash
# Gathers what the GPU machine needs into .device-build/bundle.tar.xz (ignored
# by git; compressed, as what travels there is limited to 64 MiB): the CLI, the
# test binaries, the OpenCV plugin, the OpenCL ICD loader and the shared libraries it loads that the
# GPU machine lacks, libfilterlab.so and the examples built against it. Run after a build; the
# GPU machine then runs, from the repository root, an experiment of scripts/device/experiments/
# (the runner unpacks the bundle and sets FILTERLAB_IMAGES, FILTERLAB_EXE and LD_LIBRARY_PATH):
#   python3 scripts/device/run.py EXPERIMENT OUT
# With --regress, the bundle also holds .device-build/regress/libfilterlab.so.*:
# the library built with hw_two_stage's function-static intermediate of commit
# 7df8816 put back, on which the `concurrency` experiment shows the concurrency
# test failing (the build is then rebuilt from the sources as they are).
# With --cli, the CLI, its plugins and the libraries they load alone: what
# the experiments that run filterlab need (check, bench, sweep, sanitize,
# ncu), small enough to travel when the build has many shape twins
# (FILTERLAB_SHAPES) and the test binaries would not.
set -euo pipefail
cd "$(dirname "$0")/.."
regress=${1:-}
cli_only=$([ "$regress" = --cli ] && echo yes || true)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/plugins" "$out/lib"
cp build/runtime/filterlab "$out/"
for t in build/tests/test_*; do
    [ -z "$cli_only" ] && [ -x "$t" ] && [ -f "$t" ] && cp "$t" "$out/"
done
cp build/plugins/libfilterlab_*.so "$out/plugins/"
# The public API's library, and the examples built against an installed copy
# of it (scripts/test_install.sh), which find it through LD_LIBRARY_PATH there.
if [ -z "$cli_only" ]; then
    cp -P build/runtime/api/libfilterlab.so* "$out/lib/"
    bash scripts/test_install.sh build "$out/install" >/dev/null
    mkdir -p "$out/examples"
    cp "$out"/install/cmake/{box_api,box_schedule,median_cuda} "$out"/install/gaussian_c "$out/examples/"
    rm -rf "$out/install"
    strip "$out"/test_* "$out"/examples/* "$out"/lib/libfilterlab.so.*.*.*
fi
strip "$out"/filterlab "$out"/plugins/*.so
# OpenCV and what it pulls in that Ubuntu's CUDA image does not have; the
# OpenCL ICD loader (the drivers it loads are the machine's).
for lib in libOpenCL.so.1 libopencv_core.so.406 libopencv_imgproc.so.406 libopencv_photo.so.406 libtbb.so.12 \
    libblas.so.3 liblapack.so.3 libgfortran.so.5 libquadmath.so.0 libGLX.so.0 libGLdispatch.so.0 \
    libGL.so.1 libX11.so.6 libXau.so.6 libXdmcp.so.6 libxcb.so.1 libbsd.so.0 libmd.so.0; do
    src=/lib/x86_64-linux-gnu/$lib
    [ -e "$src" ] || continue
    cp "$(readlink -f "$src")" "$out/lib/$lib"
done
if [ "$regress" = --regress ]; then
    kernel=handwritten/gaussian_maxpool/gaussian_maxpool_kernels.cu
    cp "$kernel" "$out/kernel.cu"
    git show 7df8816:"$kernel" >"$kernel"
    (cmake --build build --target filterlab_api >/dev/null; mkdir -p "$out/regress";
     cp -P build/runtime/api/libfilterlab.so* "$out/regress/") || true
    cp "$out/kernel.cu" "$kernel" && rm "$out/kernel.cu"
    touch "$kernel"
    cmake --build build --target filterlab_api >/dev/null
    strip "$out"/regress/libfilterlab.so.*.*.*
fi
rm -rf .device-build
mkdir -p .device-build
tar -C "$out" -cf - . | xz -T2 -6 >.device-build/bundle.tar.xz
du -sh .device-build/bundle.tar.xz
