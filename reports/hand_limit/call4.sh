# Issue 57, device call 4 (nvidia-h200): the register-prefetch kernels with their
# strip's rows asked of L2 first (l2_prefetch.cuh: one bulk prefetch a row, by
# the warp's lanes side by side, when the strip starts), at their strips and at
# taller ones, checked on the quick matrix and timed beside themselves on the
# users' shapes and 8192², the copy roofline in the same run.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
mkdir -p $OUT/c4
start=$(date +%s)
for f in box:hw_running_sums_pf box:hw_running_sums_pf32 gaussian:hw_columns_first_pf gaussian:hw_columns_first_pf16 \
         gaussian_maxpool:hw_fused_columns_first_pf gaussian_maxpool:hw_fused_columns_first_pf32; do
    timeout 90 $fl check --filter ${f%%:*} --variant ${f##*:} --quick -q > $OUT/c4/check_${f##*:}.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c4/check_${f##*:}.txt
done
sizes=8192,1920x1080,3840x2160,6000x4000
for r in 1 7 15; do
    timeout 100 $fl bench --filter box --variant hw_running_sums --variant hw_running_sums_pf --variant hw_running_sums_pf32 \
        --variant hw_staged_rows_a1 --sizes $sizes -p radius=$r --min-time 0.1 --min-reps 10 --out $OUT/c4/bench_r$r -q > $OUT/c4/bench_r$r.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c4/bench_r$r.txt
done
timeout 120 $fl bench --filter gaussian --variant hw_columns_first --variant hw_columns_first_pf --variant hw_columns_first_pf16 \
    --sizes $sizes -p sigma=1 --min-time 0.1 --min-reps 10 --out $OUT/c4/bench_g -q > $OUT/c4/bench_g.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c4/bench_g.txt
timeout 120 $fl bench --filter gaussian_maxpool --variant hw_fused_columns_first --variant hw_fused_columns_first_pf \
    --variant hw_fused_columns_first_pf32 --sizes $sizes -p sigma=1 --min-time 0.1 --min-reps 10 --out $OUT/c4/bench_gp -q > $OUT/c4/bench_gp.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c4/bench_gp.txt
tar -czf $OUT/c4.tgz -C $OUT c4 && rm -rf $OUT/c4
