# Issue 57, tiles in shared memory by tensor copies, device call 2
# (nvidia-h200): the bundle of `scripts/device_bundle.sh --cli` at the commit
# that copies a tile as three 2-D boxes (its columns, 256 bytes a row, and
# 16 columns on each side) and lets the last warp done with a stage refill
# it (no block barrier a tile): box hw_tiles, hw_tiles_t4 (radius 1);
# gaussian hw_tiles, hw_tiles_t4, hw_tiles_s2, hw_tiles_r16;
# gaussian_maxpool hw_fused_tiles, hw_fused_tiles_t4. Each over the full check matrix; the three first
# shapes under memcheck (leak check), racecheck and initcheck on the
# sanitizer matrix, side by side; every one timed beside the row's best
# kernel at 8192² and the users' shapes; Nsight Compute of the first shapes at 8192².
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c2/san
start=$(date +%s)
for fv in box:hw_tiles gaussian:hw_tiles gaussian_maxpool:hw_fused_tiles; do
    f=${fv%%:*} v=${fv#*:}
    for t in memcheck racecheck initcheck; do
        extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
        timeout 300 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter $f \
            --variant $v --sanitizer-matrix > $OUT/c2/san/$f.$v.$t.log 2>&1 &
    done
done
for fv in box:hw_tiles box:hw_tiles_t4 gaussian:hw_tiles gaussian:hw_tiles_t4 gaussian:hw_tiles_s2 \
          gaussian:hw_tiles_r16 gaussian_maxpool:hw_fused_tiles gaussian_maxpool:hw_fused_tiles_t4; do
    f=${fv%%:*} v=${fv#*:}
    timeout 120 $fl check --filter $f --variant $v -q > $OUT/c2/check_$f.$v.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c2/check_$f.$v.txt
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c2/times.txt
timeout 200 python3 scripts/device/run.py hand_limit $OUT/c2/bench --only memory --set memory.cases="box 8192,1920x1080,3840x2160,1001x997 radius=1 hw_running_sums hw_staged_rows hw_tiles hw_tiles_t4
gaussian 8192,1920x1080,3840x2160,1001x997 sigma=1 hw_columns_first hw_tiles hw_tiles_t4 hw_tiles_s2 hw_tiles_r16
gaussian_maxpool 8192,1920x1080,3840x2160,1001x997 sigma=1 hw_fused_columns_first hw_fused_tiles hw_fused_tiles_t4
maxpool 8192 - hw_vectorized" > $OUT/c2/bench_runner.txt 2>&1
echo "bench: $(( $(date +%s) - start )) s" >> $OUT/c2/times.txt
timeout $(( 585 - ($(date +%s) - start) )) python3 scripts/device/run.py hand_limit $OUT/c2/ncu --only ncu \
    --set ncu.cases="box 8192 radius=1 hw_tiles hw_tiles_t4
gaussian 8192 sigma=1 hw_tiles hw_tiles_t4 hw_tiles_s2
gaussian_maxpool 8192 sigma=1 hw_fused_tiles" > $OUT/c2/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c2/times.txt
tar -czf $OUT/c2.tgz -C $OUT c2 && rm -rf $OUT/c2
