#!/usr/bin/env bash
# The main job: build, show the machine, check every variant against the
# reference, and filter the bundled default image.
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
