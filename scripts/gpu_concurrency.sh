#!/usr/bin/env bash
# The library from many threads on the GPU (issue 26), in one device call from
# the repository root, after the bundle is unpacked (scripts/device_bundle.sh):
#   bash scripts/gpu_concurrency.sh OUT
# 1. test_concurrency over every CUDA variant: 8 threads x 2 streams each,
#    every thread running the same variants at once on its own sizes, half
#    the calls bad, repeated 10 times;
# 2. the same once more under compute-sanitizer racecheck (2 threads);
# 3. the CUDA API suite, and the context-lost case in a process of its own;
# 4. the concurrency test against a library built with hw_two_stage's
#    function-static intermediate put back (.device-build/regress/, made by
#    scripts/device_bundle.sh --regress): it must fail;
# 5. filterlab check of the kernels whose scratch memory changed, and their bench.
# Every step's output goes to OUT/steps.txt (under a header naming it), a
# summary line per step to OUT/summary.txt and last on the terminal.
set -uo pipefail
out=${1:?usage: gpu_concurrency.sh OUT}
mkdir -p "$out"
bin=$PWD/.device-build
export LD_LIBRARY_PATH=$bin/lib FILTERLAB_IMAGES=$PWD/tests/images
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv >"$out/machine.txt"
summary=()
step() {  # step NAME EXPECTED_RC COMMAND...
    local name=$1 want=$2
    shift 2
    local start=$SECONDS
    "$@" >"$out/step.txt" 2>&1
    local rc=$?
    { echo "=== $name: $*"; cat "$out/step.txt"; } >>"$out/steps.txt"
    local verdict=ok
    [ "$want" = fail ] && { [ $rc -ne 0 ] && verdict="ok (failed as it must)" || verdict="WRONG: passed"; }
    [ "$want" = pass ] && [ $rc -ne 0 ] && verdict="FAILED (rc $rc)"
    summary+=("$(printf '%-22s %4ss  rc %-3s %s | %s' "$name" $((SECONDS - start)) "$rc" "$verdict" "$(grep -E 'passed|ERROR SUMMARY|RACECHECK SUMMARY' "$out/step.txt" | tail -1)")")
}
step concurrency_cuda pass "$bin/test_concurrency" --backend cuda --threads 8 --streams 2 --repeat 10
step concurrency_cpu pass "$bin/test_concurrency" --backend cpu --threads 8 --streams 2 --repeat 3
step racecheck pass compute-sanitizer --tool racecheck --error-exitcode 3 \
    "$bin/test_concurrency" --backend cuda --threads 2 --streams 2
step api_cuda pass "$bin/test_api" --cuda
step api_cuda_lost pass "$bin/test_api" --cuda-lost
step regress_two_stage fail env LD_LIBRARY_PATH="$bin/regress:$bin/lib" "$bin/test_concurrency" --backend cuda \
    --threads 8 --streams 2 --repeat 8 --only gaussian_maxpool/hw_two_stage
step fixed_two_stage pass "$bin/test_concurrency" --backend cuda --threads 8 --streams 2 --repeat 8 \
    --only gaussian_maxpool/hw_two_stage
# The kernels whose scratch memory changed (hw_two_stage, the NL-means kernels): their full check.
step check_two_stage pass "$bin/filterlab" check --filter gaussian_maxpool --variant hw_two_stage -q
for v in hw_integral hw_integral_rows hw_symmetric; do
    step "check_nlmeans_$v" pass "$bin/filterlab" check --filter nlmeans --variant "$v" -q
done
# Their speed with the scratch per call (from FilterLab's pool) and the old numbers'
# sizes: hw_two_stage at 8192² gray (110.7 µs with its static intermediate,
# reports/h100), the NL-means kernels at 1024² (reports/targets).
step bench_two_stage pass "$bin/filterlab" bench --filter gaussian_maxpool --variant hw_two_stage --variant hw_fused \
    --sizes 8192 --quiet --out /tmp/bench
step bench_nlmeans pass "$bin/filterlab" bench --filter nlmeans --variant hw_symmetric \
    --sizes 1024 --quiet --out /tmp/bench
# initcheck and memcheck over the two-stage kernels' full sanitizer matrix (the padding it zeroes is what they read).
step initcheck_two_stage pass compute-sanitizer --tool initcheck --error-exitcode 3 \
    "$bin/filterlab" check --filter gaussian_maxpool --variant hw_two_stage --sanitizer-matrix -q
step memcheck_two_stage pass compute-sanitizer --tool memcheck --leak-check full --error-exitcode 3 \
    "$bin/filterlab" check --filter gaussian_maxpool --variant hw_two_stage --sanitizer-matrix -q
rm -f "$out/step.txt"
{ cat "$out/machine.txt"; printf '%s\n' "${summary[@]}"; } | tee "$out/summary.txt"
