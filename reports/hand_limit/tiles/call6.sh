# Issue 57, device call 6 (nvidia-h200): the bundle of `scripts/device_bundle.sh --cli` (the default
# build) at the commit whose clamp_tile clamps only what the strips read (a thread a row, whole rows
# 16 bytes a thread): before it, a tile at the right edge clamped up to 271 columns byte by byte.
# box and gaussian hw_tiles over the full check matrix and under memcheck (leak check), racecheck
# and initcheck on the sanitizer matrix, side by side; timed beside the rows' other hand kernels at
# the verdict's shapes (4096x2304 RGB apart); Nsight Compute at 1920x1080 and 6000x4000.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c6/san
start=$(date +%s)
for f in box gaussian; do
    for t in memcheck racecheck initcheck; do
        extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
        timeout 300 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter $f \
            --variant hw_tiles --sanitizer-matrix > $OUT/c6/san/$f.hw_tiles.$t.log 2>&1 &
    done
    timeout 300 $fl check --filter $f --variant hw_tiles -q > $OUT/c6/check_$f.hw_tiles.txt 2>&1 &
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c6/times.txt
timeout 200 python3 scripts/device/run.py hand_limit $OUT/c6/bench --only memory --set memory.cases="box 8192,6000x4000,3840x2160,1920x1080,1001x997 radius=1 hw_running_sums hw_staged_rows hw_wide_rows hw_tiles
gaussian 8192,6000x4000,3840x2160,1920x1080,1001x997 sigma=1 hw_columns_first hw_tiles" > $OUT/c6/bench_runner.txt 2>&1
timeout 100 python3 scripts/device/run.py hand_limit $OUT/c6/rgb --only memory --set memory.channels=3 --set memory.cases="box 4096x2304 radius=1 hw_running_sums hw_staged_rows hw_wide_rows hw_tiles
gaussian 4096x2304 sigma=1 hw_columns_first hw_tiles" > $OUT/c6/rgb_runner.txt 2>&1
echo "bench: $(( $(date +%s) - start )) s" >> $OUT/c6/times.txt
timeout 100 python3 scripts/device/run.py hand_limit $OUT/c6/ncu --only ncu --set ncu.cases="box 1920x1080 radius=1 hw_tiles
box 6000x4000 radius=1 hw_tiles
gaussian 1920x1080 sigma=1 hw_tiles
gaussian 6000x4000 sigma=1 hw_tiles" > $OUT/c6/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c6/times.txt
tar -czf $OUT/c6.tgz -C $OUT c6 && rm -rf $OUT/c6
