#!/usr/bin/env bash
# Asks Halide's generators again for each GPU schedule whose registration says
# CUDA_ONLY("why") (and each frozen point of one; not a point CUDA only for its
# register cap, schedule_grammar.LAUNCH_ONLY), as the build's manifest
# (BUILD/variants.json) lists them, built by default or not: each
# must still be refused by Halide's OpenCL code generator, or by the schedule
# itself where its OpenCL code is known wrong ("no OpenCL twin", with why).
# Prints each refusal's message beside the registration's reason; fails,
# naming the schedule, once one compiles (then take CUDA_ONLY off its
# registration) or fails for another reason, and when the manifest lists none
# (nothing would be tested). Usage: scripts/opencl_refusals.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
target=$(sed -n 's/^FILTERLAB_OPENCL_TARGET:STRING=//p' "$build/CMakeCache.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One line per refused schedule: <filter> <schedule key> <why> [generator parameters...], tab-separated.
# Run from the source tree, the import root of the build machinery (python3 - imports from the folder it runs in).
cd "$(dirname "$0")/.."
python3 - "$build/variants.json" >"$work/refused" <<'PY'
import json, sys
from filterlab_build.library_names import halide_schedule_key
from filterlab_build.schedule_grammar import LAUNCH_ONLY  # CUDA only for its register cap: nothing for OpenCL to refuse
for s in json.load(open(sys.argv[1]))["schedules"]:
    if s["language"] != "halide" or s["backend"] != "gpu" or s["origin"] == "autoscheduler" \
            or s.get("cuda_only") in (None, LAUNCH_ONLY):
        continue
    params = []
    if s["point"]["parameter"]:
        params.append("point=" + s["point"]["parameter"])
    if s["compile_time"]:
        params.append(f"{s['compile_time']['param']}={s['compile_time']['values'][0]}")
    if s["reads"] == "words":
        params.append("input_view=words")
    print("\t".join([s["filter"], halide_schedule_key(s["backend"], s["name"]), s["cuda_only"], *params]))
PY
if ! [ -s "$work/refused" ]; then
    echo "opencl_refusals: no schedule in $build/variants.json says CUDA_ONLY: nothing to ask" >&2
    exit 1
fi
status=0
while IFS=$'\t' read -r filter schedule why params; do
    # shellcheck disable=SC2086
    if "$build/schedules/$filter.generator" -g "$filter" -o "$work" -e c_header -n probe \
        target="$target" schedule="$schedule" ${params//$'\t'/ } >"$work/log" 2>&1; then
        echo "opencl_refusals: $filter/$schedule now compiles for $target: take CUDA_ONLY(\"$why\") off its registration" >&2
        status=1
    elif grep -q -e "Unhandled intrinsic in C backend" -e "does not support the gpu_lanes" -e "no OpenCL twin" \
        -e "Unsupported vector width in OpenCL C" "$work/log"; then
        echo "$filter/$schedule ($target; CUDA_ONLY(\"$why\")): $(grep -m1 -o -e 'Unhandled intrinsic in C backend: [a-z_]*' \
            -e 'does not support the gpu_lanes() scheduling directive' -e 'no OpenCL twin: .*' \
            -e 'Unsupported vector width in OpenCL C: [a-z0-9]*' "$work/log")"
    else
        echo "opencl_refusals: $filter/$schedule fails for another reason:" >&2
        cat "$work/log" >&2
        status=1
    fi
done <"$work/refused"
exit $status
