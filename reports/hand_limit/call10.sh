# Issue 57, device call 10 (nvidia-h200): after the box's two running-sums
# kernels took one clamped reader and one store (box_columns.cuh:
# clamped_chunk, store_means) and hw_staged_rows lost its unused ring-depth
# parameter: both over the full check matrix, under memcheck and initcheck on
# the sanitizer matrix, and timed beside each other at 8192² and 1920x1080
# (to compare with call 7's times).
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=$PWD/.device-build/filterlab
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
mkdir -p $OUT/c10/san
for v in hw_staged_rows hw_running_sums; do
    for t in memcheck initcheck; do
        timeout 150 $san --tool $t --error-exitcode 99 --print-limit 20 $fl check --filter box --variant $v \
            --sanitizer-matrix > $OUT/c10/san/box.$v.$t.log 2>&1 &
    done
done
for v in hw_staged_rows hw_running_sums; do timeout 150 $fl check --filter box --variant $v -q > $OUT/c10/check_$v.txt 2>&1; done
wait
for r in 1 7 15; do
    timeout 60 $fl bench --filter box --variant hw_running_sums --variant hw_staged_rows --sizes 8192,1920x1080 -p radius=$r \
        --min-time 0.1 --min-reps 10 --out $OUT/c10/bench_r$r -q > $OUT/c10/bench_r$r.txt 2>&1
done
tar -czf $OUT/c10.tgz -C $OUT c10 && rm -rf $OUT/c10
