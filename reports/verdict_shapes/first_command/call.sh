# Device call (nvidia-h200), from the repository root with .device-build carried: the default
# build (FILTERLAB_SHAPES=1920x1080,aligned) of the one manifest (issue 55), `scripts/device_bundle.sh
# --cli`. Every filter's quick check in parallel (each variant's every path), then what
# scripts/main.sh runs where there is a GPU: scripts/gpu_verdict.sh and its summary.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
mkdir -p $OUT/fc
start=$SECONDS
for f in box median gaussian maxpool gaussian_maxpool nlmeans; do
    timeout 250 $fl check --filter $f --quick -q > $OUT/fc/check_$f.txt 2>&1 &
done
wait
for f in $OUT/fc/check_*.txt; do echo "$(basename $f .txt): $(tail -n 1 $f)"; done | tee $OUT/fc/checks.txt
echo "checks: $((SECONDS - start)) s" | tee -a $OUT/fc/checks.txt
start=$SECONDS
bash scripts/gpu_verdict.sh $fl /tmp/gv > $OUT/fc/gpu_verdict.txt 2>&1
python3 scripts/verdict_shapes.py /tmp/gv/* --csv $OUT/fc/rows.csv --out $OUT/fc/verdict.md
sed -n '/^## Summary/,/^## Every shape/p' $OUT/fc/verdict.md | head -16
echo "gpu_verdict and its summary: $((SECONDS - start)) s" | tee -a $OUT/fc/gpu_verdict.txt
