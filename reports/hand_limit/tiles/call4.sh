# Issue 57, device call 4 (nvidia-h200): the bundle of
# `scripts/device_bundle.sh --cli` at the commit that registers the tiled
# kernels with 4 blocks an SM (tiles of 56 rows, 7 a thread: box hw_tiles56,
# gaussian hw_tiles56; of 48 rows, 6 a thread: gaussian_maxpool
# hw_fused_tiles48) and the same with evict-first stores (hw_tiles56_cs).
# Each over the full check matrix; timed beside hw_tiles and the rows' best
# at 8192² and 3840x2160; Nsight Compute at 8192².
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c4
start=$(date +%s)
for fv in box:hw_tiles56 box:hw_tiles56_cs gaussian:hw_tiles56 gaussian:hw_tiles56_cs gaussian_maxpool:hw_fused_tiles48; do
    f=${fv%%:*} v=${fv#*:}
    timeout 150 $fl check --filter $f --variant $v -q > $OUT/c4/check_$f.$v.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c4/check_$f.$v.txt
done
timeout 200 python3 scripts/device/run.py hand_limit $OUT/c4/bench --only memory --set memory.cases="box 8192,3840x2160 radius=1 hw_running_sums hw_tiles hw_tiles56 hw_tiles56_cs
gaussian 8192,3840x2160 sigma=1 hw_columns_first hw_tiles hw_tiles56 hw_tiles56_cs
gaussian_maxpool 8192,3840x2160 sigma=1 hw_fused_columns_first hw_fused_tiles hw_fused_tiles48
maxpool 8192 - hw_vectorized" > $OUT/c4/bench_runner.txt 2>&1
echo "bench: $(( $(date +%s) - start )) s" >> $OUT/c4/times.txt
timeout 150 python3 scripts/device/run.py hand_limit $OUT/c4/ncu --only ncu \
    --set ncu.cases="box 8192 radius=1 hw_tiles56 hw_tiles56_cs
gaussian 8192 sigma=1 hw_tiles56 hw_tiles56_cs
gaussian_maxpool 8192 sigma=1 hw_fused_tiles48" > $OUT/c4/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c4/times.txt
tar -czf $OUT/c4.tgz -C $OUT c4 && rm -rf $OUT/c4
