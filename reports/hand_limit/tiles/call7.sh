# Issue 57, device call 7 (nvidia-h200): the bundle of `scripts/device_bundle.sh --cli` (the default
# build) at the commit that registers box hw_tiled_sums (handwritten/box/box_tiled_sums.cu: every
# radius, column sums slid down bands of a tile, a half-warp a band) and its three levers (_b16: 16
# bands of 8 rows; _r24: 8 bands of 24; _r12: 8 bands of 12), and moves the tile's unit layout into
# unit_offset (box and gaussian hw_tiles checked and sanitized again). hw_tiled_sums and its levers
# over the full check matrix (-q is quiet, not --quick); hw_tiled_sums under memcheck (leak check), racecheck
# and initcheck on the sanitizer matrix, the hw_tiles under initcheck; every lever timed beside the
# box's hand kernels at 8192² and three users' shapes, radius 7 and 15 (and 1); Nsight Compute at 8192².
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c7/san
start=$(date +%s)
for t in memcheck racecheck initcheck; do
    extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
    timeout 300 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter box \
        --variant hw_tiled_sums --sanitizer-matrix > $OUT/c7/san/box.hw_tiled_sums.$t.log 2>&1 &
done
for f in box gaussian; do
    timeout 300 $san --tool initcheck --error-exitcode 99 --print-limit 20 $fl check --filter $f \
        --variant hw_tiles --sanitizer-matrix > $OUT/c7/san/$f.hw_tiles.initcheck.log 2>&1 &
    timeout 300 $fl check --filter $f --variant hw_tiles -q > $OUT/c7/check_$f.hw_tiles.txt 2>&1 &
done
timeout 300 $fl check --filter box --variant hw_tiled_sums > $OUT/c7/check_box.hw_tiled_sums.txt 2>&1 &
for v in hw_tiled_sums_b16 hw_tiled_sums_r24 hw_tiled_sums_r12; do
    timeout 300 $fl check --filter box --variant $v -q > $OUT/c7/check_box.$v.txt 2>&1 &
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c7/times.txt
levers="hw_running_sums hw_staged_rows hw_tiled_sums hw_tiled_sums_b16 hw_tiled_sums_r24 hw_tiled_sums_r12"
timeout 260 python3 scripts/device/run.py hand_limit $OUT/c7/bench --only memory --set memory.cases="box 8192,3840x2160,1920x1080 radius=7 $levers
box 8192,3840x2160,1920x1080 radius=15 $levers
box 8192 radius=1 hw_running_sums hw_tiles hw_tiled_sums hw_tiled_sums_b16" > $OUT/c7/bench_runner.txt 2>&1
echo "bench: $(( $(date +%s) - start )) s" >> $OUT/c7/times.txt
timeout $(( 585 - ($(date +%s) - start) )) python3 scripts/device/run.py hand_limit $OUT/c7/ncu --only ncu \
    --set ncu.cases="box 8192 radius=7 hw_tiled_sums hw_tiled_sums_b16
box 8192 radius=15 hw_tiled_sums hw_tiled_sums_b16" > $OUT/c7/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c7/times.txt
tar -czf $OUT/c7.tgz -C $OUT c7 && rm -rf $OUT/c7
