# Device call 4 (nvidia-h200): call 3's two loose ends. compute-sanitizer
# initcheck on the issue's case streamed in bands (the default `run`, not
# --whole-image); memcheck of nlmeans/cuda_auto_anderson2021 at 1920x1080
# (its exact path, on which call 3's check lost the GPU) and at 1921x1080 (generic).
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
fl=.device-build/filterlab
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
mkdir -p $OUT/c4
cs=/usr/local/cuda/bin/compute-sanitizer
python3 -c "import random; r=random.Random(5); open('/tmp/odd.ppm','wb').write(b'P6\n131 257\n255\n'+r.randbytes(131*257*3))"
for radius in 7 15; do
    $cs --tool initcheck --print-limit 4 $fl run --filter box --variant cuda_words_strips --param radius=$radius \
        -i /tmp/odd.ppm -o /tmp/odd_out.ppm --quiet > $OUT/c4/initcheck_streamed_r$radius.txt 2>&1
    echo "initcheck streamed radius $radius: rc=$? $(grep -c 'Uninitialized' $OUT/c4/initcheck_streamed_r$radius.txt) reports"
done
for shape in 1920x1080 1921x1080; do
    python3 -c "import random,sys; w,h=map(int,'$shape'.split('x')); r=random.Random(3); open('/tmp/n.pgm','wb').write(b'P5\n%d %d\n255\n'%(w,h)+r.randbytes(w*h))"
    $cs --tool memcheck --print-limit 3 $fl run --filter nlmeans --variant cuda_auto_anderson2021 -i /tmp/n.pgm \
        -o /tmp/n_out.pgm --whole-image --quiet > $OUT/c4/memcheck_anderson_$shape.txt 2>&1
    echo "memcheck anderson $shape: rc=$? $(grep -E 'ERROR SUMMARY' $OUT/c4/memcheck_anderson_$shape.txt)"
    grep -m 3 -E "Invalid|at .*kernel|Address" $OUT/c4/memcheck_anderson_$shape.txt
done
