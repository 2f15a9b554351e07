# Device call 3 (nvidia-h200), the same carried build, right after call 2: the gray verdict
# bench of the Gaussian, max pool, Gaussian -> pool and NL-means rows on every path; then
# compute-sanitizer where the earlier runs found or left something: initcheck of
# box/cuda_auto_anderson2021 (its rounded-up tails now guarded) over the sanitizer matrix, and
# of box/cuda_words_strips streamed in bands (the band buffers now zeroed) on a 131x257 RGB image;
# every NL-means CUDA DSL variant under racecheck, and the two that did not finish under initcheck
# and memcheck, on small images (67x45 gray, 70x41 RGB, 128x64 gray: the aligned class) at two
# parameter sets, `filterlab run --whole-image` a case (the sanitizer matrix ran past 480 s).
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=$PWD/.device-build/filterlab
mkdir -p $OUT/c3/s
start=$(date +%s)
python3 scripts/device/run.py verdict_shapes $OUT/c3/v --only gray \
    --set gray.filters="gaussian maxpool gaussian_maxpool nlmeans" > $OUT/c3/gray_runner.txt 2>&1
echo "gray: $(( $(date +%s) - start )) s" > $OUT/c3/times.txt
cs=/usr/local/cuda/bin/compute-sanitizer
python3 -c "
import random
r = random.Random(5)
for name, w, h, c in (('g67x45', 67, 45, 1), ('c70x41', 70, 41, 3), ('g128x64', 128, 64, 1), ('c131x257', 131, 257, 3)):
    open('/tmp/' + name + ('.pgm' if c == 1 else '.ppm'), 'wb').write(b'P%d\n%d %d\n255\n' % (5 if c == 1 else 6, w, h) + r.randbytes(w * h * c))"
jobs=$OUT/c3/jobs.txt
echo "initcheck box cuda_auto_anderson2021 matrix" > $jobs
for r in 7 15; do echo "initcheck box cuda_words_strips streamed radius=$r" >> $jobs; done
for v in cuda_auto_anderson2021 cuda_fused cuda_per_offset cuda_scatter cuda_symmetric tvm_fused tvm_fused_rows4; do
    echo "racecheck nlmeans $v small" >> $jobs
done
for v in cuda_auto_anderson2021 cuda_per_offset; do echo "initcheck nlmeans $v small" >> $jobs; done
echo "memcheck nlmeans cuda_per_offset small" >> $jobs
one() {  # TOOL FILTER VARIANT WHAT [PARAM]
    local log=$OUT/c3/s/$2.$3.$1.$4${5:+.$5}.log extra=""
    [ "$1" = memcheck ] && extra="--leak-check full"
    local cmd="timeout 300 $cs --tool $1 $extra --error-exitcode 99 --print-limit 10"
    case $4 in
    matrix) $cmd $fl check --filter $2 --variant $3 --sanitizer-matrix -q > $log 2>&1 ;;
    streamed) $cmd $fl run --filter $2 --variant $3 -p $5 -i /tmp/c131x257.ppm -o /tmp/o_$5.ppm --quiet > $log 2>&1 ;;
    small) for img in /tmp/g67x45.pgm /tmp/c70x41.ppm /tmp/g128x64.pgm; do
               for p in "" "-p patch=1 -p search=3 -p h=5"; do
                   echo "== $img $p" >> $log
                   $cmd $fl run --filter $2 --variant $3 $p -i $img -o /tmp/o_$3_$1.${img##*.} --whole-image --quiet >> $log 2>&1
                   echo "rc=$?" >> $log
               done
           done ;;
    esac
    echo "rc=$?" >> $log
}
export -f one; export OUT cs fl
xargs -P 8 -L 1 bash -c 'one "$@"' _ < $jobs
echo "with sanitizers: $(( $(date +%s) - start )) s" >> $OUT/c3/times.txt
for f in $OUT/c3/s/*.log; do
    echo "$(basename $f .log): $(grep -ohE '(ERROR SUMMARY: [0-9]+ errors?|RACECHECK SUMMARY: [0-9]+ hazards?)' $f | sort | uniq -c | tr '\n' ' ') $(grep -c '^rc=0' $f) rc=0 of $(grep -c '^rc=' $f)"
done > $OUT/c3/sanitizers.txt
tar -czf $OUT/c3.tgz -C $OUT c3 && rm -rf $OUT/c3
