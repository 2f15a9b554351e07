# Device call 15 (nvidia-h200), seventh session, a bundle of the six build shapes (call 13's
# configuration, at the commit this script lands in): the six NL-means runs that call 14 cut at
# 380 s, each given the call's whole time (570 s), six side by side: cuda_fused and tvm_fused_rows4
# under memcheck with the leak check and initcheck, cuda_scatter under initcheck, tvm_fused under
# memcheck; and call 16's box tvm_running_sums_interior under memcheck (leak check), racecheck and
# initcheck. The sanitizer matrix with the build's shapes puts every exact path under the tools.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c15
start=$(date +%s)
for vt in cuda_fused:memcheck cuda_fused:initcheck tvm_fused_rows4:memcheck tvm_fused_rows4:initcheck \
          cuda_scatter:initcheck tvm_fused:memcheck; do
    v=${vt%%:*} t=${vt#*:}
    extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
    { timeout 570 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter nlmeans --variant $v \
        --sanitizer-matrix > $OUT/c15/nlmeans.$v.$t.log 2>&1
      echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c15/nlmeans.$v.$t.log; } &
done
for t in memcheck racecheck initcheck; do
    extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
    { timeout 570 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter box \
        --variant tvm_running_sums_interior --sanitizer-matrix > $OUT/c15/box.tvm_running_sums_interior.$t.log 2>&1
      echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c15/box.tvm_running_sums_interior.$t.log; } &
done
wait
tar -czf $OUT/c15.tgz -C $OUT c15 && rm -rf $OUT/c15
