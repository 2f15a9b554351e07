#!/usr/bin/env bash
# The main job: build, show the machine, check every variant against the
# reference (the quick matrix), filter the bundled default image, then a quick
# benchmark of every variant this machine can run and its report.
#
# A second run rebuilds nothing when nothing changed, and then reuses the check
# and the benchmark of the first (each stamped once it passed): their results
# belong to the binaries they ran, so they are redone only when a binary is
# newer than their stamp. FILTERLAB_FRESH=1 redoes them anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
FILTERLAB_BUILD_TARGET=filterlab_tools bash scripts/setup.sh  # the tools main.sh runs, not the tests
filterlab=build/runtime/filterlab
state=build/main
mkdir -p "$state" build/out

# True when the step's stamp is newer than every binary it exercised.
fresh() {
    [ "${FILTERLAB_FRESH:-0}" != 1 ] && [ -f "$state/$1.stamp" ] &&
        [ -z "$(find build/runtime -maxdepth 2 \( -name filterlab -o -name '*.so' \) -newer "$state/$1.stamp")" ]
}

$filterlab info

if fresh check; then
    echo "main: check passed on these binaries already ($(cat "$state/check.stamp")); FILTERLAB_FRESH=1 redoes it"
else
    # The quick matrix (about a minute on two cores); `filterlab check` is the
    # whole one (49 000 cases, about five minutes), which CI runs.
    $filterlab check --quick
    date -u +%Y-%m-%dT%H:%MZ >"$state/check.stamp"
fi

$filterlab run --filter box --variant cpu_tiled --param radius=2 \
    --input tests/images/gray_small.png --output build/out/gray_small_box5x5.png
echo "main: filtered image written to build/out/gray_small_box5x5.png"

# Quick: small sizes, few samples, NL-means' search window at 5 (its reference
# is the slowest case), the whole run within a 2-minute budget (a case that
# cannot fit is skipped and says so) — not a measurement to quote.
if fresh bench && [ -d build/main-bench ]; then
    echo "main: reusing the quick benchmark of these binaries ($(cat "$state/bench.stamp"))"
else
    rm -rf build/main-bench
    $filterlab bench --sizes 64,128,256 --min-reps 3 --min-time 0.05 --param search=5 --budget 120 \
        --out build/main-bench
    date -u +%Y-%m-%dT%H:%MZ >"$state/bench.stamp"
fi
rm -rf build/report
$filterlab report build/main-bench/* --out build/report
echo "main: report written to build/report/report.md"

# On a machine with an NVIDIA GPU, the verdict for that GPU (issue 54):
# scripts/gpu_verdict.sh's runs, their summary first in the report and last here.
machine=$($filterlab info)
if grep -q "^GPU: *NVIDIA" <<<"$machine"; then
    if fresh verdict && [ -d build/main-verdict ]; then
        echo "main: reusing the verdict's runs of these binaries ($(cat "$state/verdict.stamp"))"
    else
        rm -rf build/main-verdict
        bash scripts/gpu_verdict.sh "$filterlab" build/main-verdict
        date -u +%Y-%m-%dT%H:%MZ >"$state/verdict.stamp"
    fi
    python3 scripts/verdict_shapes.py build/main-verdict/* --out build/report/verdict.md
    { echo "# The verdict on this GPU"; echo; cat build/report/verdict.md; echo; cat build/report/report.md; } \
        >build/report/report.md.new
    mv build/report/report.md.new build/report/report.md
    echo
    echo "main: the verdict on this GPU (build/report/verdict.md, first in the report):"
    sed -n '/^## Summary/,/^## Every shape/p' build/report/verdict.md | sed '$d'
fi
