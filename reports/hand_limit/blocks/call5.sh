# Issue 57, device call 5 (nvidia-h200), eighth session: the bundle of calls 3-4 (six-shape build),
# scripts/device/experiments/hand_limit.conf's memory step as it now stands (every hand kernel of
# the seven memory-bound rows at 8192² gray, the box's new bests hw_tiles and hw_block_sums among
# them), one run, each kernel's share of the copy roofline measured in the same run.
set -o pipefail
timeout 400 python3 scripts/device/run.py hand_limit $OUT/c5 --only memory > $OUT/c5_runner.txt 2>&1
tar -czf $OUT/c5.tgz -C $OUT c5 c5_runner.txt && rm -rf $OUT/c5
