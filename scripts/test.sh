#!/usr/bin/env bash
# Builds and runs the whole test suite through CTest. CUDA tests report
# themselves skipped where there is no GPU. It tests what build/ builds: the
# frontier by default, every schedule with FILTERLAB_ALL_SCHEDULES=ON (as
# .ci/run sets it; scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# CTest runs as many tests at once as there are cores: OpenMP workers that
# spin while they wait would take the core of the test beside them.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
ctest --test-dir build --output-on-failure --parallel "$(nproc)"  # the long tests are single-threaded
