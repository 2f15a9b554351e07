# Issues 54 and 57, device call 4 (nvidia-h200), eighth session: the six-shape build at the merge
# of TVM's staged stores (tvm_register_block_pairs_staged_r96: the 3x3 median's outputs through a
# shared tile; tvm_register_rows_interior_staged: the box's framed interior at r 1-3 likewise) and
# of hw_block_sums' lever hw_block_sums_mul (phase 2's high halves as multiply-highs). The three
# over the full check matrix and under memcheck (leak check), racecheck and initcheck on the
# sanitizer matrix; then the verdict's rows of the box at radius 1 and the 3x3 median
# (scripts/verdict_rows.txt, hw_block_sums and the new TVM variants added), every class at every
# shape, gray and 4096x2304 RGB, in one run; hw_block_sums against its lever at radius 7 and 15;
# Nsight Compute of the lever at 8192².
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
source scripts/device/steps.sh
start=$(date +%s)
STEP_TIMEOUT=240
check_variant $OUT/c4 median tvm_register_block_pairs_staged_r96
sanitize_variant $OUT/c4 median tvm_register_block_pairs_staged_r96
for v in tvm_register_rows_interior_staged hw_block_sums_mul; do
    check_variant $OUT/c4 box $v
    sanitize_variant $OUT/c4 box $v
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c4/times.txt
row() { grep -E "^$1 .* $2 " scripts/verdict_rows.txt | cut -d' ' -f5-; }
gray=8192,1920x1080,3840x2160,6000x4000,1001x997
box1="$(row box radius=1) hw_block_sums tvm_register_rows_interior_staged"
med3="$(row median size=3) tvm_register_block_pairs_staged_r96"
timeout 380 python3 scripts/device/run.py verdict_shapes $OUT/c4/g --only gray,rgb \
    --set gray.cases="box $gray radius=1 $box1
median $gray size=3 $med3
box $gray radius=7 hw_block_sums hw_block_sums_mul
box $gray radius=15 hw_block_sums hw_block_sums_mul" \
    --set rgb.cases="box 4096x2304 radius=1 $box1
median 4096x2304 size=3 $med3
box 4096x2304 radius=7 hw_block_sums hw_block_sums_mul
box 4096x2304 radius=15 hw_block_sums hw_block_sums_mul" > $OUT/c4/rows_runner.txt 2>&1
echo "rows: $(( $(date +%s) - start )) s" >> $OUT/c4/times.txt
timeout $(( 585 - ($(date +%s) - start) )) python3 scripts/device/run.py hand_limit $OUT/c4/ncu --only ncu \
    --set ncu.cases="box 8192 radius=7 hw_block_sums hw_block_sums_mul
box 8192 radius=15 hw_block_sums hw_block_sums_mul" > $OUT/c4/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c4/times.txt
tar -czf $OUT/c4.tgz -C $OUT c4 && rm -rf $OUT/c4
