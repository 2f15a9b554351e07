#!/usr/bin/env bash
# Issues 28-30 on the H100, one device call: new box, median, Gaussian, Gaussian
# -> pool and NL-means schedules ($VARIANTS, "filter/variant ...") checked (full
# matrix, then compute-sanitizer memcheck over the sanitizer matrix -> check.txt);
# the sweeps of the schedules in $SWEEPS ("filter/schedule ...", a build
# with -DFILTERLAB_SWEEPS naming them) at each of their GPU target rows, every point
# checked (quick matrix) then timed, the row's best hand kernel timed after
# (sweeps.txt, runs/); Nsight Compute on the new schedules and the hand
# kernels they answer (ncu.txt).
# usage, from the repository root after unpacking the bundle:
#   VARIANTS="..." SWEEPS="..." bash scripts/gpu_issue30.sh OUT_DIR
set -uo pipefail
o=$1
fl=${FILTERLAB_EXE:-.device-build/filterlab}
mkdir -p "$o"
row_args() {  # row_args FILTER N: its Nth GPU target row's size and parameters (scripts/targets_rows.txt)
    local size params
    read -r _ size params _ < <(grep "^$1 .*halide<=1\." scripts/targets_rows.txt | sed -n "${2:-1}p")
    echo "--sizes $size"
    [ "$params" = - ] || for kv in ${params//,/ }; do echo "-p $kv"; done
}
best_hand() {  # the row's best hand kernels on the H100 (reports/targets), as bench arguments
    case $1 in
    box) echo --variant hw_wide_rows --variant hw_running_sums ;;
    median) echo hw_row_pairs ;;
    gaussian) echo hw_columns_first ;;
    gaussian_maxpool) echo hw_fused_columns_first ;;
    nlmeans) echo hw_symmetric ;;
    esac
}
{
    echo '$ ldd filterlab | grep "not found"'
    ldd "$fl" | grep "not found"
    for fv in ${VARIANTS:-}; do
        f=${fv%%/*} v=${fv#*/}
        echo "\$ filterlab check --filter $f --variant $v"
        timeout 150 "$fl" check --filter "$f" --variant "$v" 2>&1 | grep -v "cases done" | tail -3
        echo "\$ compute-sanitizer --tool memcheck filterlab check --filter $f --variant $v --sanitizer-matrix"
        timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 "$fl" check --filter "$f" --variant "$v" \
            --sanitizer-matrix 2>&1 | grep -v "cases done" | tail -3
        echo "rc=${PIPESTATUS[0]}"
    done
} >"$o/check.txt" 2>&1
{
    for fs in ${SWEEPS:-}; do
        f=${fs%%/*} s=${fs#*/}
        rows=$(grep -c "^$f .*halide<=1\." scripts/targets_rows.txt)
        for n in $(seq "$rows"); do
            echo "\$ filterlab sweep --filter $f --schedule $s $(row_args "$f" "$n") --quick"
            # shellcheck disable=SC2046
            "$fl" sweep --filter "$f" --schedule "$s" $(row_args "$f" "$n") --quick --min-reps 10 --min-time 0.1 \
                -q --out "$o/runs" 2>&1 | grep -E "^$f|passed|failed|error"
            hand=$(best_hand "$f")
            [ "${hand#--}" != "$hand" ] || hand="--variant $hand"
            # shellcheck disable=SC2046,SC2086
            "$fl" bench --filter "$f" $hand $(row_args "$f" "$n") --min-reps 20 --min-time 0.2 -q \
                --out "$o/runs" | grep "^$f"
        done
    done
} >"$o/sweeps.txt" 2>&1
python3 scripts/noise_pgm.py /tmp 1024 8192
metrics=gpu__time_duration.sum,sm__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed_pipe_xu.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
{
    for fv in ${NCU:-}; do
        f=${fv%%/*} v=${fv#*/}
        n=8192
        [ "$f" = nlmeans ] && n=1024
        echo "\$ ncu --clock-control none --metrics ... filterlab run --filter $f --variant $v -i noise$n.pgm"
        timeout 90 ncu --clock-control none --metrics "$metrics" "$fl" run --filter "$f" --variant "$v" \
            -i /tmp/noise$n.pgm -o /tmp/out.pgm --quiet 2>&1 | grep -E "^ +[a-z0-9_]+__|^  [A-Za-z_]" | head -24
    done
} >"$o/ncu.txt" 2>&1
