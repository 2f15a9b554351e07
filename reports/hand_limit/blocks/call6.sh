# Issue 57, device call 6 (nvidia-h200), eighth session: the default build (scripts/device_bundle.sh
# --cli) at the commit where the three running-sums box kernels store the chunk that straddles the
# right edge through strip_words.cuh's store_bytes (each had its own byte loop). The three over the
# full check matrix, and under memcheck and initcheck on the sanitizer matrix.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
source scripts/device/steps.sh
STEP_TIMEOUT=200
for v in hw_block_sums hw_running_sums hw_staged_rows; do
    check_variant $OUT/c6 box $v
    sanitize_variant $OUT/c6 box $v memcheck initcheck
done
wait
tar -czf $OUT/c6.tgz -C $OUT c6 && rm -rf $OUT/c6
