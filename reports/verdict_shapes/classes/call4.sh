# Device call 4 (nvidia-h200), the same carried build: the two Anderson2021 libraries whose
# autoschedules changed (their rounded-up tails guarded) under the tools call 3 did not run on
# them: box/cuda_auto_anderson2021 under memcheck (with the leak check) and racecheck over the
# sanitizer matrix, nlmeans/cuda_auto_anderson2021 under memcheck on call 3's small images.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=$PWD/.device-build/filterlab
cs=/usr/local/cuda/bin/compute-sanitizer
mkdir -p $OUT/c4
python3 -c "
import random
r = random.Random(5)
for name, w, h, c in (('g67x45', 67, 45, 1), ('c70x41', 70, 41, 3), ('g128x64', 128, 64, 1)):
    open('/tmp/' + name + ('.pgm' if c == 1 else '.ppm'), 'wb').write(b'P%d\n%d %d\n255\n' % (5 if c == 1 else 6, w, h) + r.randbytes(w * h * c))"
timeout 400 $cs --tool memcheck --leak-check full --error-exitcode 99 --print-limit 10 $fl check --filter box \
    --variant cuda_auto_anderson2021 --sanitizer-matrix -q > $OUT/c4/box.memcheck.log 2>&1 &
timeout 400 $cs --tool racecheck --error-exitcode 99 --print-limit 10 $fl check --filter box \
    --variant cuda_auto_anderson2021 --sanitizer-matrix -q > $OUT/c4/box.racecheck.log 2>&1 &
for img in /tmp/g67x45.pgm /tmp/c70x41.ppm /tmp/g128x64.pgm; do
    for p in "" "-p patch=1 -p search=3 -p h=5"; do
        echo "== $img $p" >> $OUT/c4/nlmeans.memcheck.log
        timeout 300 $cs --tool memcheck --leak-check full --error-exitcode 99 --print-limit 10 $fl run --filter nlmeans \
            --variant cuda_auto_anderson2021 $p -i $img -o /tmp/o.${img##*.} --whole-image --quiet >> $OUT/c4/nlmeans.memcheck.log 2>&1
        echo "rc=$?" >> $OUT/c4/nlmeans.memcheck.log
    done
done
wait
for f in $OUT/c4/*.log; do
    echo "$(basename $f .log): $(grep -ohE '(ERROR SUMMARY: [0-9]+ errors?|RACECHECK SUMMARY: [0-9]+ hazards?)' $f | sort | uniq -c | tr '\n' ' ') $(grep -ohE '^[0-9]+ passed, [0-9]+ failed' $f)"
done | tee $OUT/c4/summary.txt
