# Issue 57, device call 6 (nvidia-h200): hw_staged_rows's least strip height
# (1, 4, 8 and its 16 rows) where the image does not fill the GPU many times
# over (1001x997, 1920x1080, 3840x2160) and at 8192², beside hw_running_sums,
# hw_wide_rows and Halide's cuda_lanes; checked on the quick matrix first.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
mkdir -p $OUT/c6
start=$(date +%s)
for v in hw_staged_rows_m1 hw_staged_rows_m4 hw_staged_rows_m8; do
    timeout 60 $fl check --filter box --variant $v --quick -q > $OUT/c6/check_$v.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c6/check_$v.txt
done
for r in 1 7 15; do
    timeout 100 $fl bench --filter box --variant hw_staged_rows --variant hw_staged_rows_m1 --variant hw_staged_rows_m4 \
        --variant hw_staged_rows_m8 --variant hw_running_sums --variant hw_wide_rows --variant cuda_lanes \
        --sizes 1001x997,1920x1080,3840x2160,8192 -p radius=$r --min-time 0.1 --min-reps 10 --out $OUT/c6/bench_r$r -q > $OUT/c6/bench_r$r.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c6/bench_r$r.txt
done
tar -czf $OUT/c6.tgz -C $OUT c6 && rm -rf $OUT/c6
