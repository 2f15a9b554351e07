#!/usr/bin/env bash
# Issue 29 on the H100, one device call: the median's separable-network
# schedules ($VARIANTS, default cuda_sep_tile cuda_sep_lanes) checked (full
# matrix, then compute-sanitizer memcheck over the sanitizer matrix); the
# median's target rows of scripts/targets_rows.txt timed side by side with the
# Python peers (gpu_targets.sh bench); the CUDA rows again with the register
# cap lifted (HL_CUDA_JIT_MAX_REGISTERS=$CAP, default 128); Nsight Compute on
# the new schedules and hw_row_pairs at 3x3 8192² and 7x7 4096².
# usage, from the repository root after unpacking the bundle:
#   bash scripts/gpu_median_sep.sh OUT_DIR
set -uo pipefail
o=$1
fl=${FILTERLAB_EXE:-.device-build/filterlab}
vs=${VARIANTS:-cuda_sep_tile cuda_sep_lanes}
cap=${CAP:-128}
mkdir -p "$o"
{
    echo '$ ldd filterlab | grep "not found"'
    ldd "$fl" | grep "not found"
    for v in $vs; do
        echo "\$ filterlab check --filter median --variant $v"
        timeout 120 "$fl" check --filter median --variant "$v" 2>&1 | grep -v "cases done" | tail -3
        echo "\$ compute-sanitizer --tool memcheck filterlab check --filter median --variant $v --sanitizer-matrix"
        timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 "$fl" check --filter median --variant "$v" \
            --sanitizer-matrix 2>&1 | grep -v "cases done" | tail -3
        echo "rc=${PIPESTATUS[0]}"
    done
} >"$o/check.txt" 2>&1
grep "^median" scripts/targets_rows.txt >/tmp/median_rows.txt
bash scripts/gpu_targets.sh "$o" bench /tmp/median_rows.txt
va=()
for v in $vs hw_row_pairs; do va+=(--variant "$v"); done
{
    for row in "8192 3" "4096 5" "4096 7"; do
        set -- $row
        echo "\$ HL_CUDA_JIT_MAX_REGISTERS=$cap filterlab bench --filter median --sizes $1 -p size=$2 ${va[*]}"
        HL_CUDA_JIT_MAX_REGISTERS=$cap "$fl" bench --filter median --sizes "$1" -p size="$2" "${va[@]}" \
            --min-reps 20 --min-time 0.3 -q --out "$o/runs_cap$cap" | grep "^median"
    done
} >"$o/bench_cap$cap.txt" 2>&1
python3 scripts/noise_pgm.py /tmp 4096 8192
metrics=gpu__time_duration.sum,sm__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
{
    for row in "8192 3" "4096 7"; do
        set -- $row
        for v in $vs hw_row_pairs; do
            echo "\$ ncu --clock-control none --metrics ... filterlab run --filter median --variant $v -p size=$2 -i noise$1.pgm"
            timeout 60 ncu --clock-control none --metrics "$metrics" "$fl" run --filter median --variant "$v" -p size="$2" \
                -i /tmp/noise$1.pgm -o /tmp/out.pgm --quiet 2>&1 | grep -E "^ +[a-z0-9_]+__|^  [A-Za-z_]" | head -14
        done
    done
} >"$o/ncu.txt" 2>&1
