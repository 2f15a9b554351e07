# Issue 57, device call 3 (nvidia-h200): the staged kernels with rows copied in
# groups (a wait and an announcement a group; the box's groups of 4 rows, the
# Gaussian's of 5, the window's height, which the loop unrolls so the window
# never moves), checked on the quick matrix and timed beside the kernels they
# would replace on the users' shapes and 8192², the copy roofline in the same
# run; Nsight Compute on the staged kernels at 8192².
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
mkdir -p $OUT/c3
start=$(date +%s)
for f in box:hw_staged_rows box:hw_staged_rows_a1 box:hw_staged_rows_a4 gaussian:hw_staged_columns gaussian:hw_staged_columns_w4 \
         gaussian:hw_staged_columns_w4s2 gaussian:hw_staged_columns_w4s4 gaussian_maxpool:hw_fused_staged \
         gaussian_maxpool:hw_fused_staged_w4 gaussian_maxpool:hw_fused_staged_w4s4; do
    timeout 90 $fl check --filter ${f%%:*} --variant ${f##*:} --quick -q > $OUT/c3/check_${f##*:}.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c3/check_${f##*:}.txt
done
sizes=8192,1920x1080,3840x2160,6000x4000
for r in 1 7 15; do
    timeout 100 $fl bench --filter box --variant hw_running_sums --variant hw_staged_rows --variant hw_staged_rows_a1 \
        --variant hw_staged_rows_a4 --sizes $sizes -p radius=$r --min-time 0.1 --min-reps 10 --out $OUT/c3/bench_r$r -q > $OUT/c3/bench_r$r.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c3/bench_r$r.txt
done
timeout 120 $fl bench --filter gaussian --variant hw_columns_first --variant hw_staged_columns --variant hw_staged_columns_w4 \
    --variant hw_staged_columns_w4s2 --variant hw_staged_columns_w4s4 --sizes $sizes \
    -p sigma=1 --min-time 0.1 --min-reps 10 --out $OUT/c3/bench_g -q > $OUT/c3/bench_g.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c3/bench_g.txt
timeout 120 $fl bench --filter gaussian_maxpool --variant hw_fused_columns_first --variant hw_fused_staged \
    --variant hw_fused_staged_w4 --variant hw_fused_staged_w4s4 --sizes $sizes \
    -p sigma=1 --min-time 0.1 --min-reps 10 --out $OUT/c3/bench_gp -q > $OUT/c3/bench_gp.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c3/bench_gp.txt
timeout 120 python3 scripts/device/run.py hand_limit $OUT/c3/ncu --only ncu --set ncu.cases="gaussian 8192 sigma=1 hw_staged_columns
gaussian 8192 sigma=1 hw_staged_columns_w4
gaussian_maxpool 8192 sigma=1 hw_fused_staged_w4
box 8192 radius=1 hw_staged_rows
box 8192 radius=15 hw_staged_rows" > $OUT/c3/ncu_runner.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c3/ncu_runner.txt
tar -czf $OUT/c3.tgz -C $OUT c3 && rm -rf $OUT/c3
