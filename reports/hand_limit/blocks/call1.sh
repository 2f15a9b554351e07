# Issue 57, device call 1 (nvidia-h200), eighth session: the six-shape build (FILTERLAB_SHAPES of
# verdict_shapes' call 10) at the commit that registers box hw_block_sums (a block of 128 threads a
# tile of 16 rows by 480 columns: column sums, runs along rows, a staging tile) and its lever
# hw_block_sums_r32 (tiles of 32 rows). Both over the full check matrix and under memcheck (leak
# check), racecheck and initcheck on the sanitizer matrix; then timed beside the box's hand kernels
# and TVM's staged running sums at the verdict's five gray shapes and 4096x2304 RGB, radius 1, 7 and
# 15; then Nsight Compute of both and hw_running_sums at 8192², radius 7 and 15.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
source scripts/device/steps.sh
start=$(date +%s)
STEP_TIMEOUT=240
for v in hw_block_sums hw_block_sums_r32; do
    check_variant $OUT/c1 box $v
    sanitize_variant $OUT/c1 box $v
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c1/times.txt
hand="hw_running_sums hw_staged_rows hw_block_sums hw_block_sums_r32"
gray=8192,1920x1080,3840x2160,6000x4000,1001x997
timeout 250 python3 scripts/device/run.py verdict_shapes $OUT/c1/g --only gray,rgb \
    --set gray.cases="box $gray radius=1 $hand hw_tiles
box $gray radius=7 $hand tvm_running_sums_staged
box $gray radius=15 $hand tvm_running_sums_staged" \
    --set rgb.cases="box 4096x2304 radius=1 $hand hw_tiles
box 4096x2304 radius=7 $hand tvm_running_sums_staged
box 4096x2304 radius=15 $hand tvm_running_sums_staged" > $OUT/c1/rows_runner.txt 2>&1
echo "rows: $(( $(date +%s) - start )) s" >> $OUT/c1/times.txt
timeout $(( 585 - ($(date +%s) - start) )) python3 scripts/device/run.py hand_limit $OUT/c1/ncu --only ncu \
    --set ncu.cases="box 8192 radius=7 hw_block_sums hw_block_sums_r32 hw_running_sums
box 8192 radius=15 hw_block_sums hw_block_sums_r32 hw_running_sums" > $OUT/c1/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c1/times.txt
tar -czf $OUT/c1.tgz -C $OUT c1 && rm -rf $OUT/c1
