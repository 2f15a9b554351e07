# Device call 9 (nvidia-h200), fifth session: call 6's bundle again; the one sanitizer run of call 7's
# 225 that its time limit left unstarted (box/cuda_shared_tile under initcheck, its sanitizer matrix).
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c9
timeout 200 $san --tool initcheck --error-exitcode 99 --print-limit 20 $fl check --filter box --variant cuda_shared_tile \
    --sanitizer-matrix > $OUT/c9/box.cuda_shared_tile.initcheck.log 2>&1
echo "rc=$?" >> $OUT/c9/box.cuda_shared_tile.initcheck.log
tar -czf $OUT/c9.tgz -C $OUT c9 && rm -rf $OUT/c9
