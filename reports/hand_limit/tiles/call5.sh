# Issue 57, device call 5 (nvidia-h200): the bundle of
# `scripts/device_bundle.sh --cli` at the commit that registers, beside
# hw_tiles (256 x 64 tiles, 3 stages, 4 warps), more tiles in flight a block:
# box hw_tiles_s5 and gaussian hw_tiles_s5 (5 stages: 2 blocks an SM, 4 tiles
# in flight each) and box hw_tiles_s4w8 (4 stages, 8 warps, 4 rows a thread).
# Each on the quick check matrix; timed at 8192² beside hw_tiles; Nsight Compute.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c5
start=$(date +%s)
for fv in box:hw_tiles_s5 box:hw_tiles_s4w8 gaussian:hw_tiles_s5; do
    f=${fv%%:*} v=${fv#*:}
    timeout 100 $fl check --filter $f --variant $v --quick -q > $OUT/c5/check_$f.$v.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c5/check_$f.$v.txt
done
timeout 150 python3 scripts/device/run.py hand_limit $OUT/c5/bench --only memory --set memory.cases="box 8192 radius=1 hw_running_sums hw_tiles hw_tiles_s5 hw_tiles_s4w8
gaussian 8192 sigma=1 hw_columns_first hw_tiles hw_tiles_s5" > $OUT/c5/bench_runner.txt 2>&1
echo "bench: $(( $(date +%s) - start )) s" >> $OUT/c5/times.txt
timeout 120 python3 scripts/device/run.py hand_limit $OUT/c5/ncu --only ncu \
    --set ncu.cases="box 8192 radius=1 hw_tiles hw_tiles_s5 hw_tiles_s4w8
gaussian 8192 sigma=1 hw_tiles hw_tiles_s5" > $OUT/c5/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c5/times.txt
tar -czf $OUT/c5.tgz -C $OUT c5 && rm -rf $OUT/c5
