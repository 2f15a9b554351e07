# Issue 57, device call 2 (nvidia-h200), eighth session: call 1 again (same six-shape build, same
# steps) after two fixes of box hw_block_sums: its column sums' groups of rows overlapped (call 1's
# racecheck hazards and the 1x19 failures, so its bench left it out), and a tile's loads branch
# once (clamped at an edge, one 32-bit-offset load inside) rather than at every load.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
source scripts/device/steps.sh
start=$(date +%s)
STEP_TIMEOUT=240
for v in hw_block_sums hw_block_sums_r32; do
    check_variant $OUT/c2 box $v
    sanitize_variant $OUT/c2 box $v
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c2/times.txt
hand="hw_running_sums hw_staged_rows hw_block_sums hw_block_sums_r32"
gray=8192,1920x1080,3840x2160,6000x4000,1001x997
timeout 250 python3 scripts/device/run.py verdict_shapes $OUT/c2/g --only gray,rgb \
    --set gray.cases="box $gray radius=1 $hand hw_tiles
box $gray radius=7 $hand tvm_running_sums_staged
box $gray radius=15 $hand tvm_running_sums_staged" \
    --set rgb.cases="box 4096x2304 radius=1 $hand hw_tiles
box 4096x2304 radius=7 $hand tvm_running_sums_staged
box 4096x2304 radius=15 $hand tvm_running_sums_staged" > $OUT/c2/rows_runner.txt 2>&1
echo "rows: $(( $(date +%s) - start )) s" >> $OUT/c2/times.txt
timeout $(( 585 - ($(date +%s) - start) )) python3 scripts/device/run.py hand_limit $OUT/c2/ncu --only ncu \
    --set ncu.cases="box 8192 radius=7 hw_block_sums hw_block_sums_r32 hw_running_sums
box 8192 radius=15 hw_block_sums hw_block_sums_r32 hw_running_sums" > $OUT/c2/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c2/times.txt
tar -czf $OUT/c2.tgz -C $OUT c2 && rm -rf $OUT/c2
