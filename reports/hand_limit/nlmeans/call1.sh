# Issue 57, NL-means levers, device call 1 (nvidia-h200): the bundle of
# `scripts/device_bundle.sh --cli` at the commit that registers
# hw_symmetric_window and hw_symmetric_window_k2 beside hw_symmetric, the
# normalisation's kernel templated on the channels. Each kernel over the full
# check matrix, and under memcheck (leak check), racecheck and initcheck on the
# sanitizer matrix, the nine sanitizer runs side by side; the three timed at
# the verdict's NL-means shapes (one bench a shape, with hw_fused at 1024²);
# Nsight Compute at 1024², every kernel of each.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c1/san
start=$(date +%s)
V="hw_symmetric hw_symmetric_window hw_symmetric_window_k2"
for v in $V; do
    for t in memcheck racecheck initcheck; do
        extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
        timeout 400 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter nlmeans \
            --variant $v --sanitizer-matrix > $OUT/c1/san/$v.$t.log 2>&1 &
    done
done
for v in $V; do
    timeout 200 $fl check --filter nlmeans --variant $v -q > $OUT/c1/check_$v.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c1/check_$v.txt
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c1/times.txt
timeout 150 python3 scripts/device/run.py hand_limit $OUT/c1/bench --only memory --set memory.cases="nlmeans 1024 h=10 hw_symmetric hw_symmetric_window hw_symmetric_window_k2 hw_fused
nlmeans 1920x1080 h=10 hw_symmetric hw_symmetric_window hw_symmetric_window_k2
nlmeans 1001x997 h=10 hw_symmetric hw_symmetric_window hw_symmetric_window_k2" > $OUT/c1/bench_runner.txt 2>&1
echo "bench: $(( $(date +%s) - start )) s" >> $OUT/c1/times.txt
timeout $(( 585 - ($(date +%s) - start) )) python3 scripts/device/run.py hand_limit $OUT/c1/ncu --only ncu \
    --set ncu.cases="nlmeans 1024 h=10 hw_symmetric hw_symmetric_window hw_symmetric_window_k2" > $OUT/c1/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c1/times.txt
tar -czf $OUT/c1.tgz -C $OUT c1 && rm -rf $OUT/c1
