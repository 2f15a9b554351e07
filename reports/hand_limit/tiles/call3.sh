# Issue 57 (and 54), device call 3 (nvidia-h200): the bundle of
# `scripts/device_bundle.sh --cli` at the merge of tvm_register_rows_interior.
# The tiled kernels at taller tiles (box hw_tiles_s3, hw_tiles_r16; gaussian
# hw_tiles_s2, hw_tiles_s3, hw_tiles_r16; gaussian_maxpool hw_fused_tiles_s2,
# hw_fused_tiles_r16) over the full check matrix, timed beside hw_tiles and
# the rows' best at 8192² and the users' shapes; Nsight Compute of them at
# 8192² and of hw_tiles against hw_columns_first at 1920x1080 (a kernel's own
# time against the bench's); the SASS of the tiled kernels. TVM's box
# interior (tvm_register_rows_interior, radius 1-3): the full check matrix,
# memcheck, racecheck and initcheck on the sanitizer matrix, and timed on
# every path beside tvm_register_rows at the users' shapes.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c3/san
start=$(date +%s)
for t in memcheck racecheck initcheck; do
    extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
    timeout 300 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter box \
        --variant tvm_register_rows_interior --sanitizer-matrix > $OUT/c3/san/box.tvm_register_rows_interior.$t.log 2>&1 &
done
for fv in box:tvm_register_rows_interior box:hw_tiles_s3 box:hw_tiles_r16 gaussian:hw_tiles_s3 gaussian:hw_tiles_r16 \
          gaussian_maxpool:hw_fused_tiles_s2 gaussian_maxpool:hw_fused_tiles_r16; do
    f=${fv%%:*} v=${fv#*:}
    timeout 150 $fl check --filter $f --variant $v -q > $OUT/c3/check_$f.$v.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c3/check_$f.$v.txt
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c3/times.txt
timeout 200 python3 scripts/device/run.py hand_limit $OUT/c3/bench --only memory --set memory.cases="box 8192,1920x1080,3840x2160,1001x997 radius=1 hw_running_sums hw_staged_rows hw_tiles hw_tiles_s3 hw_tiles_r16
gaussian 8192,1920x1080,3840x2160,1001x997 sigma=1 hw_columns_first hw_tiles hw_tiles_s2 hw_tiles_s3 hw_tiles_r16
gaussian_maxpool 8192,1920x1080,3840x2160,1001x997 sigma=1 hw_fused_columns_first hw_fused_tiles hw_fused_tiles_s2 hw_fused_tiles_r16
maxpool 8192 - hw_vectorized" > $OUT/c3/bench_runner.txt 2>&1
echo "bench: $(( $(date +%s) - start )) s" >> $OUT/c3/times.txt
timeout 200 python3 scripts/device/run.py hand_limit $OUT/c3/tvm --only memory --set memory.paths=all --set memory.cases="box 8192,1920x1080,3840x2160,6000x4000,1001x997 radius=1 hw_staged_rows hw_running_sums tvm_register_rows tvm_register_rows_interior
box 1920x1080,6000x4000,1001x997 radius=2 hw_staged_rows tvm_register_rows tvm_register_rows_interior
box 1920x1080,6000x4000,1001x997 radius=3 hw_staged_rows tvm_register_rows tvm_register_rows_interior" > $OUT/c3/tvm_runner.txt 2>&1
echo "tvm bench: $(( $(date +%s) - start )) s" >> $OUT/c3/times.txt
timeout 150 python3 scripts/device/run.py hand_limit $OUT/c3/ncu --only ncu \
    --set ncu.cases="box 8192 radius=1 hw_tiles_s3 hw_tiles_r16
gaussian 8192 sigma=1 hw_tiles_s3 hw_tiles_r16
gaussian_maxpool 8192 sigma=1 hw_fused_tiles_s2 hw_fused_tiles_r16
gaussian 1920x1080 sigma=1 hw_tiles hw_columns_first" > $OUT/c3/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c3/times.txt
cuobjdump -sass $fl 2>/dev/null | awk '/Function : .*tiles_kernel/{on=1} /Function : /&&!/tiles_kernel/{on=0} on' | gzip > $OUT/c3/tiles_sass.txt.gz
tar -czf $OUT/c3.tgz -C $OUT c3 && rm -rf $OUT/c3
