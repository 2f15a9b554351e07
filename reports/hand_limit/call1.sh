# Issue 57, device call 1 (nvidia-h200): the box staged in shared memory
# (hw_staged_rows, ring depths 4, 8 and 16 rows ahead) checked on the quick
# matrix and timed beside hw_running_sums at r = 1, 7, 15 on the users' shapes
# and 8192², the copy roofline in the same run; then Nsight Compute on the rows
# bound by arithmetic (5×5 and 7×7 medians, NL-means) and the other rows' best.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
mkdir -p $OUT/c1
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm --format=csv > $OUT/c1/gpu.txt
for v in hw_staged_rows hw_staged_rows_a4 hw_staged_rows_a16; do
    timeout 90 $fl check --filter box --variant $v --quick -q > $OUT/c1/check_$v.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c1/check_$v.txt
done
for r in 1 7 15; do
    timeout 100 $fl bench --filter box --variant hw_running_sums --variant hw_staged_rows --variant hw_staged_rows_a4 \
        --variant hw_staged_rows_a16 --sizes 8192,1920x1080,3840x2160,6000x4000 -p radius=$r --min-time 0.1 \
        --min-reps 10 --out $OUT/c1/bench_r$r -q > $OUT/c1/bench_r$r.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c1/bench_r$r.txt
done
timeout 250 python3 scripts/device/run.py hand_limit $OUT/c1/ncu --only ncu --set ncu.cases="median 4096 size=5 hw_row_pairs
median 4096 size=7 hw_row_pairs
nlmeans 1024 h=10 hw_symmetric
gaussian 8192 sigma=1 hw_columns_first
gaussian_maxpool 8192 sigma=1 hw_fused_columns_first
median 8192 size=3 hw_row_pairs
box 8192 radius=15 hw_staged_rows
box 8192 radius=1 hw_staged_rows" > $OUT/c1/ncu_runner.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c1/ncu_runner.txt
tar -czf $OUT/c1.tgz -C $OUT c1 && rm -rf $OUT/c1
