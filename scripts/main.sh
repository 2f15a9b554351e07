#!/usr/bin/env bash
# The main job: build, show the machine, check every variant against the
# reference, filter the bundled default image, then a quick benchmark of every
# variant this machine can run and its report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
filterlab=build/runtime/filterlab
$filterlab info
$filterlab check
mkdir -p build/out
$filterlab run --filter box --variant cpu_tiled --param radius=2 \
    --input tests/images/gray_small.png --output build/out/gray_small_box5x5.png
echo "main: filtered image written to build/out/gray_small_box5x5.png"

# Quick: small sizes, few samples, NL-means' search window at 5 (its reference
# is the slowest case) — minutes on two cores, not a measurement to quote.
rm -rf build/main-bench
$filterlab bench --sizes 64,128,256 --min-reps 3 --min-time 0.05 --param search=5 --out build/main-bench
$filterlab report build/main-bench/* --out build/report
echo "main: report written to build/report/report.md"
