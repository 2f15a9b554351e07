# Issues 57 and 54, device call 3 (nvidia-h200), eighth session: the six-shape build at the merge
# of box hw_block_sums' shared-memory reads 4 sums a read (80 registers) with its lever
# hw_block_sums_b8 (64 registers), and of Halide's cuda_sums_staged (TVM's staged running sums in
# Halide). The three over the full check matrix (every path of the six build shapes) and under
# memcheck (leak check), racecheck and initcheck on the sanitizer matrix; then the verdict's box
# rows of radius 7 and 15 (scripts/verdict_rows.txt) with the three added, every class at every
# shape, gray and 4096x2304 RGB, in one run; then Nsight Compute at 8192².
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
source scripts/device/steps.sh
start=$(date +%s)
STEP_TIMEOUT=240
new="hw_block_sums hw_block_sums_b8 cuda_sums_staged"
for v in $new; do
    check_variant $OUT/c3 box $v
    sanitize_variant $OUT/c3 box $v
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c3/times.txt
rows() { grep -E "^box .* radius=$1 " scripts/verdict_rows.txt | cut -d' ' -f5-; }
gray=8192,1920x1080,3840x2160,6000x4000,1001x997
timeout 400 python3 scripts/device/run.py verdict_shapes $OUT/c3/g --only gray,rgb \
    --set gray.cases="box $gray radius=7 $(rows 7) $new
box $gray radius=15 $(rows 15) $new" \
    --set rgb.cases="box 4096x2304 radius=7 $(rows 7) $new
box 4096x2304 radius=15 $(rows 15) $new" > $OUT/c3/rows_runner.txt 2>&1
echo "rows: $(( $(date +%s) - start )) s" >> $OUT/c3/times.txt
timeout $(( 585 - ($(date +%s) - start) )) python3 scripts/device/run.py hand_limit $OUT/c3/ncu --only ncu \
    --set ncu.cases="box 8192 radius=7 $new
box 8192 radius=15 $new" > $OUT/c3/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c3/times.txt
tar -czf $OUT/c3.tgz -C $OUT c3 && rm -rf $OUT/c3
