# Issue 57, tiles in shared memory by tensor copies, device call 1
# (nvidia-h200): the bundle of `scripts/device_bundle.sh --cli` at the commit
# that registers the tiled kernels (handwritten/tile_pipeline.cuh): box
# hw_tiles, hw_tiles_w512 (radius 1); gaussian hw_tiles, hw_tiles_r64,
# hw_tiles_t4, hw_tiles_w512; gaussian_maxpool hw_fused_tiles,
# hw_fused_tiles_w512. Each over the full check matrix; the three first
# shapes under memcheck (leak check), racecheck and initcheck on the
# sanitizer matrix, side by side; every one timed beside the row's best
# kernel at 8192² and the users' shapes; Nsight Compute of the first shapes at 8192².
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c1/san
start=$(date +%s)
for fv in box:hw_tiles gaussian:hw_tiles gaussian_maxpool:hw_fused_tiles; do
    f=${fv%%:*} v=${fv#*:}
    for t in memcheck racecheck initcheck; do
        extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
        timeout 300 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter $f \
            --variant $v --sanitizer-matrix > $OUT/c1/san/$f.$v.$t.log 2>&1 &
    done
done
for fv in box:hw_tiles box:hw_tiles_w512 gaussian:hw_tiles gaussian:hw_tiles_r64 gaussian:hw_tiles_t4 \
          gaussian:hw_tiles_w512 gaussian_maxpool:hw_fused_tiles gaussian_maxpool:hw_fused_tiles_w512; do
    f=${fv%%:*} v=${fv#*:}
    timeout 120 $fl check --filter $f --variant $v -q > $OUT/c1/check_$f.$v.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c1/check_$f.$v.txt
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c1/times.txt
timeout 200 python3 scripts/device/run.py hand_limit $OUT/c1/bench --only memory --set memory.cases="box 8192,1920x1080,3840x2160,1001x997 radius=1 hw_running_sums hw_staged_rows hw_tiles hw_tiles_w512
gaussian 8192,1920x1080,3840x2160,1001x997 sigma=1 hw_columns_first hw_tiles hw_tiles_r64 hw_tiles_t4 hw_tiles_w512
gaussian_maxpool 8192,1920x1080,3840x2160,1001x997 sigma=1 hw_fused_columns_first hw_fused_tiles hw_fused_tiles_w512
maxpool 8192 - hw_vectorized" > $OUT/c1/bench_runner.txt 2>&1
echo "bench: $(( $(date +%s) - start )) s" >> $OUT/c1/times.txt
timeout $(( 585 - ($(date +%s) - start) )) python3 scripts/device/run.py hand_limit $OUT/c1/ncu --only ncu \
    --set ncu.cases="box 8192 radius=1 hw_tiles
gaussian 8192 sigma=1 hw_tiles
gaussian_maxpool 8192 sigma=1 hw_fused_tiles" > $OUT/c1/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c1/times.txt
tar -czf $OUT/c1.tgz -C $OUT c1 && rm -rf $OUT/c1
