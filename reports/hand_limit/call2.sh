# Issue 57, device call 2 (nvidia-h200): the Gaussian and Gaussian -> pool on
# rows staged in shared memory (hw_staged_columns, hw_fused_staged; 8- and
# 16-pixel strips, 4, 8 and 16 rows in flight) checked on the quick matrix and
# timed beside the columns-first kernels on the users' shapes and 8192², the
# copy roofline in the same run; Nsight Compute on the staged kernels.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
mkdir -p $OUT/c2
start=$(date +%s)
for f in gaussian:hw_staged_columns gaussian:hw_staged_columns_w4 gaussian:hw_staged_columns_s16 gaussian:hw_staged_columns_s4 \
         gaussian_maxpool:hw_fused_staged gaussian_maxpool:hw_fused_staged_w4 gaussian_maxpool:hw_fused_staged_s16; do
    timeout 90 $fl check --filter ${f%%:*} --variant ${f##*:} --quick -q > $OUT/c2/check_${f##*:}.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c2/check_${f##*:}.txt
done
timeout 120 $fl bench --filter gaussian --variant hw_columns_first --variant hw_staged_columns --variant hw_staged_columns_w4 \
    --variant hw_staged_columns_s16 --variant hw_staged_columns_s4 --sizes 8192,1920x1080,3840x2160,6000x4000 \
    -p sigma=1 --min-time 0.1 --min-reps 10 --out $OUT/c2/bench_g -q > $OUT/c2/bench_g.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c2/bench_g.txt
timeout 120 $fl bench --filter gaussian_maxpool --variant hw_fused_columns_first --variant hw_fused_staged \
    --variant hw_fused_staged_w4 --variant hw_fused_staged_s16 --sizes 8192,1920x1080,3840x2160,6000x4000 \
    -p sigma=1 --min-time 0.1 --min-reps 10 --out $OUT/c2/bench_gp -q > $OUT/c2/bench_gp.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c2/bench_gp.txt
timeout 120 python3 scripts/device/run.py hand_limit $OUT/c2/ncu --only ncu --set ncu.cases="gaussian 8192 sigma=1 hw_staged_columns
gaussian 8192 sigma=1 hw_staged_columns_w4
gaussian_maxpool 8192 sigma=1 hw_fused_staged
box 8192 radius=1 hw_running_sums
box 8192 radius=15 hw_running_sums" > $OUT/c2/ncu_runner.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c2/ncu_runner.txt
tar -czf $OUT/c2.tgz -C $OUT c2 && rm -rf $OUT/c2
