#!/usr/bin/env bash
# Issue 28 on the H100, one device call: a running-sums schedule ($VARIANT,
# default cuda_sums_strips) checked (full matrix, then compute-sanitizer
# memcheck over the sanitizer matrix), timed at 8192² beside the hand kernels
# and the earlier Halide schedules at r = 1, 7 and 15, and profiled (ncu) at
# r = 1 and 15 beside hw_running_sums.
# usage, from the repository root after unpacking the bundle:
#   [VARIANT=cuda_sums_strips_t32v] bash scripts/gpu_box_sums.sh OUT_DIR
set -uo pipefail
o=$1
fl=${FILTERLAB_EXE:-.device-build/filterlab}
v=${VARIANT:-cuda_sums_strips}
mkdir -p "$o"
echo '$ ldd filterlab | grep "not found"'
ldd "$fl" | grep "not found"
echo "\$ filterlab check --filter box --variant $v"
"$fl" check --filter box --variant "$v" 2>&1 | grep -v "cases done" | tail -3
echo "\$ compute-sanitizer --tool memcheck filterlab check --filter box --variant $v --sanitizer-matrix"
compute-sanitizer --tool memcheck --error-exitcode 99 "$fl" check --filter box --variant "$v" \
    --sanitizer-matrix 2>&1 | grep -v "cases done" | tail -3
echo "rc=${PIPESTATUS[0]}"
for r in 1 7 15; do
    echo "\$ filterlab bench --filter box --sizes 8192 -p radius=$r --variant ... (below)"
    "$fl" bench --filter box --variant hw_running_sums --variant hw_wide_rows --variant "$v" \
        --variant cuda_rows8 --variant cuda_shared_tile --sizes 8192 -p radius=$r --min-reps 20 --min-time 0.3 -q \
        --out "$o/runs" | grep "^box"
done
python3 -c "
import numpy as np; n = 8192; a = np.random.default_rng(1).integers(0, 256, (n, n), dtype=np.uint8)
open('/tmp/noise8192.pgm', 'wb').write(b'P5\n%d %d\n255\n' % (n, n) + a.tobytes())"
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
for profiled in "$v" hw_running_sums; do
    for r in 1 15; do
        echo "\$ ncu --clock-control none --metrics ... filterlab run --filter box --variant $profiled -p radius=$r -i noise8192.pgm"
        ncu --clock-control none --metrics "$metrics" "$fl" run --filter box --variant "$profiled" -p radius=$r \
            -i /tmp/noise8192.pgm -o /tmp/out8192.pgm --quiet 2>&1 | grep -E "^ +[a-z_]+__|  [a-z_]+_kernel|^  [A-Za-z_]" | head -14
    done
done
