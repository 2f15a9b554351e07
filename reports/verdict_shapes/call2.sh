# Device call 2 (nvidia-h200): the gray and RGB verdict benches (call 1's
# gray runs did not come back: at most 8 files return, and its runs were a
# ninth), everything it writes in one tar.
set -o pipefail
python3 scripts/device/run.py verdict_shapes $OUT/v --only gray,rgb
tar -C $OUT -cf $OUT/verdict_runs.tar v && rm -rf $OUT/v
