# Device call 16 (nvidia-h200), seventh session: the six-shape build (call 10's configuration) at the
# merge of TVM's box tvm_running_sums_interior (radius 7 and 15: running sums without clamps at any
# shape, beside a clamped frame). Its full check matrix (every path of the six build shapes); then
# the box's rows of radius 7 and 15 of scripts/verdict_rows.txt, every class at every shape, gray and
# 4096x2304 RGB, in one run (its sanitizers: call 15).
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c16
start=$(date +%s)
timeout 300 $fl check --filter box --variant tvm_running_sums_interior > $OUT/c16/check_box.tvm_running_sums_interior.txt 2>&1
echo "check: $(( $(date +%s) - start )) s" > $OUT/c16/times.txt
rows() { grep -E "^box .* radius=$1 " scripts/verdict_rows.txt | cut -d' ' -f5-; }
timeout $(( 585 - ($(date +%s) - start) )) python3 scripts/device/run.py verdict_shapes $OUT/c16/g --only gray,rgb \
    --set gray.cases="box 8192,1920x1080,3840x2160,6000x4000,1001x997 radius=7 $(rows 7)
box 8192,1920x1080,3840x2160,6000x4000,1001x997 radius=15 $(rows 15)" \
    --set rgb.cases="box 4096x2304 radius=7 $(rows 7)
box 4096x2304 radius=15 $(rows 15)" > $OUT/c16/rows_runner.txt 2>&1
echo "rows: $(( $(date +%s) - start )) s" >> $OUT/c16/times.txt
tar -czf $OUT/c16.tgz -C $OUT c16 && rm -rf $OUT/c16
