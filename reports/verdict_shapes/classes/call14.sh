# Device call 14 (nvidia-h200), sixth session, the bundle of call 13 (six build shapes): NL-means'
# frontier DSL variants (cuda_scatter, cuda_fused, tvm_fused_rows4, tvm_fused) under memcheck with the
# leak check and initcheck on the sanitizer matrix, whose build shapes put every exact path under the
# tools; eight runs side by side, each cut at 380 s (racecheck, which ran past 480 s a tool on the
# default matrix, left out).
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c14
start=$(date +%s)
for v in cuda_scatter cuda_fused tvm_fused_rows4 tvm_fused; do
    for t in memcheck initcheck; do
        extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
        { timeout 380 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter nlmeans --variant $v \
            --sanitizer-matrix > $OUT/c14/nlmeans.$v.$t.log 2>&1
          echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c14/nlmeans.$v.$t.log; } &
    done
done
wait
tar -czf $OUT/c14.tgz -C $OUT c14 && rm -rf $OUT/c14
