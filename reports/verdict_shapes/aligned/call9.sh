# Device call 9 (nvidia-h200), a bundle of the build with the NL-means autoschedule's
# limit (offset_planes.h): that variant at the shapes that lost the GPU in call 8
# (now refused with one error line) and at 1920x1080 (it runs); then
# compute-sanitizer (memcheck, racecheck, initcheck) over every CUDA variant of
# NL-means, the median and the box on the sanitizer matrix (the build's shape on
# every exact path, widths 64 and 192 on every aligned one), 16 at a time.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
mkdir -p $OUT/c9 /tmp/img
start=$(date +%s)
for s in 1920x1080 3840x2160 8192x8192; do
    python3 -c "
import numpy as np
w, h = map(int, '$s'.split('x'))
a = np.random.default_rng(1).integers(0, 256, (h, w), dtype=np.uint8)
open('/tmp/img/$s.pgm', 'wb').write(b'P5 %d %d 255\n' % (w, h) + a.tobytes())"
    for p in "" "-p search=3 -p patch=1"; do
        echo "== $s $p" >> $OUT/c9/anderson.txt
        timeout 60 $fl run --filter nlmeans --variant cuda_auto_anderson2021 $p -i /tmp/img/$s.pgm \
            -o /tmp/img/out.pgm --whole-image >> $OUT/c9/anderson.txt 2>&1
        echo "rc=$?" >> $OUT/c9/anderson.txt
    done
done
timeout 470 python3 scripts/device/run.py verdict_shapes $OUT/c9/s --only sanitize \
    --set sanitize.filters="nlmeans median box" > $OUT/c9/sanitize_runner.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c9/sanitize_runner.txt
tar -czf $OUT/c9.tgz -C $OUT c9 && rm -rf $OUT/c9
