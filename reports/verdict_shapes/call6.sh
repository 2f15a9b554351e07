# Device call 6 (nvidia-h200): scripts/gpu_verdict.sh, the GPU part of the
# README's first command (scripts/main.sh), with the bundle's filterlab, and
# its summary; timed as a user would see it.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
export LD_LIBRARY_PATH=$PWD/.device-build/lib
start=$SECONDS
bash scripts/gpu_verdict.sh .device-build/filterlab /tmp/gv
python3 scripts/verdict_shapes.py /tmp/gv/* | sed -n '/^## Summary/,/^## Every shape/p'
echo "gpu_verdict and its summary: $((SECONDS - start)) s"
