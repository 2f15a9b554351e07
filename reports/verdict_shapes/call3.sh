# Device call 3 (nvidia-h200): which NL-means variant call 1's check lost the
# GPU on (each CUDA variant's quick check in its own process), compute-sanitizer
# initcheck on the case (box/cuda_words_strips, 131x257 RGB), then
# Nsight Compute of each side's best at the squares (NCU=no: not again; its
# first run, with the bundle not yet unpacked for the steps above, is call3_ncu.tar).
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build  # each call's carried .device-build holds the bundle alone
fl=.device-build/filterlab
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
mkdir -p $OUT/c3
for v in $($fl list --filter nlmeans | awk '$3 == "cuda" && $4 != "peer" {print $2}'); do
    $fl check --filter nlmeans --variant $v --quick > $OUT/c3/nlmeans_$v.txt 2>&1 &
done
python3 -c "import random; r=random.Random(5); open('/tmp/odd.ppm','wb').write(b'P6\n131 257\n255\n'+r.randbytes(131*257*3))"
cs=/usr/local/cuda/bin/compute-sanitizer
for radius in 1 15; do
    $cs --tool initcheck --print-limit 4 $fl run --filter box --variant cuda_words_strips --param radius=$radius \
        -i /tmp/odd.ppm -o /tmp/odd_out.ppm --whole-image --quiet > $OUT/c3/initcheck_words_strips_r$radius.txt 2>&1
    echo "initcheck radius $radius: rc=$? $(grep -c 'Uninitialized' $OUT/c3/initcheck_words_strips_r$radius.txt) reports"
done
wait
grep -H -E "FAIL|error|passed, " $OUT/c3/nlmeans_*.txt | cut -c1-300
[ "${NCU:-yes}" = no ] || python3 scripts/device/run.py verdict_shapes $OUT/c3/v --only ncu
tar -C $OUT -cf $OUT/call3.tar c3 && rm -rf $OUT/c3
