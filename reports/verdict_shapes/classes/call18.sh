# Device call 18 (nvidia-h200), seventh session, call 17's bundle (six build shapes, 8e03b0b): the two
# NL-means runs that calls 14 and 15 cut (tvm_fused and tvm_fused_rows4 under memcheck with the leak
# check, on the sanitizer matrix with the build's shapes), alone on the GPU, side by side, each given
# the call's whole time (580 s).
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c18
start=$(date +%s)
for v in tvm_fused tvm_fused_rows4; do
    { timeout 580 $san --tool memcheck --leak-check full --error-exitcode 99 --print-limit 20 $fl check --filter nlmeans \
        --variant $v --sanitizer-matrix > $OUT/c18/nlmeans.$v.memcheck.log 2>&1
      echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c18/nlmeans.$v.memcheck.log; } &
done
wait
tar -czf $OUT/c18.tgz -C $OUT c18 && rm -rf $OUT/c18
