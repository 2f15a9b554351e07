#!/usr/bin/env bash
# Asks Halide's generators again for each GPU schedule the build leaves out of
# OpenCL (FILTERLAB_OPENCL_REFUSED in schedules/CMakeLists.txt, written to
# BUILD/opencl_refused.txt at configure time): each must still be refused by
# Halide's OpenCL code generator, or by the schedule itself where its OpenCL
# code is known wrong ("no OpenCL twin", with why). Prints each refusal's message; fails, naming
# the schedule, once one compiles (then take it off the list) or fails for
# another reason. Usage: scripts/opencl_refusals.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
target=$(sed -n 's/^FILTERLAB_OPENCL_TARGET:STRING=//p' "$build/CMakeCache.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
while read -r filter schedule params; do
    [ -n "$filter" ] || continue
    # shellcheck disable=SC2086
    if "$build/schedules/$filter.generator" -g "$filter" -o "$work" -e c_header -n probe \
        target="$target" schedule="$schedule" $params >"$work/log" 2>&1; then
        echo "opencl_refusals: $filter/$schedule now compiles for $target: take it off FILTERLAB_OPENCL_REFUSED" >&2
        status=1
    elif grep -q -e "Unhandled intrinsic in C backend" -e "does not support the gpu_lanes" -e "no OpenCL twin" "$work/log"; then
        echo "$filter/$schedule ($target): $(grep -m1 -o -e 'Unhandled intrinsic in C backend: [a-z_]*' \
            -e 'does not support the gpu_lanes() scheduling directive' -e 'no OpenCL twin: .*' "$work/log")"
    else
        echo "opencl_refusals: $filter/$schedule fails for another reason:" >&2
        cat "$work/log" >&2
        status=1
    fi
done <"$build/opencl_refused.txt"
exit $status
