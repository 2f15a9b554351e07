# Device call 8 (nvidia-h200), the same bundle: NL-means' Anderson variant alone at
# the large shapes of the earlier eight-shape build (its generic path here: this
# build names 1920x1080 only), each in its own process; then the gray verdict
# bench on every path.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
mkdir -p $OUT/c8 /tmp/img
start=$(date +%s)
for s in 3840x2160 4096x2304 6000x4000 4096x4096 8192x8192; do
    python3 -c "
import numpy as np, sys
w, h = map(int, '$s'.split('x'))
a = np.random.default_rng(1).integers(0, 256, (h, w), dtype=np.uint8)
open('/tmp/img/$s.pgm', 'wb').write(b'P5 %d %d 255\n' % (w, h) + a.tobytes())"
    for p in "" "-p search=3 -p patch=1"; do
        echo "== $s $p" >> $OUT/c8/anderson.txt
        timeout 60 $fl run --filter nlmeans --variant cuda_auto_anderson2021 $p -i /tmp/img/$s.pgm \
            -o /tmp/img/out.pgm --whole-image >> $OUT/c8/anderson.txt 2>&1
        echo "rc=$?" >> $OUT/c8/anderson.txt
    done
done
echo "anderson: $(( $(date +%s) - start )) s" > $OUT/c8/times.txt
python3 scripts/device/run.py verdict_shapes $OUT/c8/v --only gray > $OUT/c8/gray_runner.txt 2>&1
echo "with gray: $(( $(date +%s) - start )) s" >> $OUT/c8/times.txt
tar -czf $OUT/c8.tgz -C $OUT c8 && rm -rf $OUT/c8
