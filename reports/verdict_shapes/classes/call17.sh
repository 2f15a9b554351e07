# Device call 17 (nvidia-h200), seventh session: the six-shape build (call 10's configuration) at the
# merge of TVM's box tvm_running_sums_staged (radius 7 and 15: a block's outputs staged in shared
# memory and stored by consecutive threads at every shape) and of the sanitizer matrix that launches
# each build shape at the parameter sets a variant takes. The new variant over the full check matrix
# (every path of the six build shapes); it and tvm_running_sums_long under memcheck (leak check),
# racecheck and initcheck on the sanitizer matrix, side by side; then the box's rows of radius 7 and
# 15 of scripts/verdict_rows.txt, every class at every shape, gray and 4096x2304 RGB, in one run.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c17/san
start=$(date +%s)
timeout 200 $fl check --filter box --variant tvm_running_sums_staged > $OUT/c17/check_box.tvm_running_sums_staged.txt 2>&1 &
for v in tvm_running_sums_staged tvm_running_sums_long; do
    for t in memcheck racecheck initcheck; do
        extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
        timeout 200 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter box --variant $v \
            --sanitizer-matrix > $OUT/c17/san/box.$v.$t.log 2>&1 &
    done
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c17/times.txt
rows() { grep -E "^box .* radius=$1 " scripts/verdict_rows.txt | cut -d' ' -f5-; }
timeout $(( 585 - ($(date +%s) - start) )) python3 scripts/device/run.py verdict_shapes $OUT/c17/g --only gray,rgb \
    --set gray.cases="box 8192,1920x1080,3840x2160,6000x4000,1001x997 radius=7 $(rows 7)
box 8192,1920x1080,3840x2160,6000x4000,1001x997 radius=15 $(rows 15)" \
    --set rgb.cases="box 4096x2304 radius=7 $(rows 7)
box 4096x2304 radius=15 $(rows 15)" > $OUT/c17/rows_runner.txt 2>&1
echo "rows: $(( $(date +%s) - start )) s" >> $OUT/c17/times.txt
tar -czf $OUT/c17.tgz -C $OUT c17 && rm -rf $OUT/c17
