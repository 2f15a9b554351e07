#!/usr/bin/env bash
# Coverage-guided fuzzing of the image decoders (tests/fuzz): builds the
# libFuzzer targets with clang, ASan and UBSan in build-fuzz/, then runs each
# for SECONDS (default 60) from the committed seed corpus and dictionary.
# Any crash, sanitizer report, leak, single allocation over 64 MiB (inputs
# are at most 2 KiB, which the memory bound of docs/cli.md lets decode to at
# most ~51 MB) or timeout fails the run;
# the input that caused it is left in build-fuzz/findings/. For a long
# campaign: bash scripts/fuzz.sh 36000 (each target ten hours).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-60}
missing=()
for p in clang libclang-rt-14-dev libpng-dev zlib1g-dev; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
bash scripts/setup.sh --deps-only  # cmake and ninja
export PATH=$root/.venv/bin:$PATH
build=$root/build-fuzz
if ! [ -f "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DFILTERLAB_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
fi
cmake --build "$build"
mkdir -p "$build/findings"
status=0
for target in image png pnm bmp; do
    corpus=$build/corpus/$target
    mkdir -p "$corpus"
    seeds=("$root/tests/fuzz/corpus/png" "$root/tests/fuzz/corpus/pnm" "$root/tests/fuzz/corpus/bmp")
    [ "$target" = image ] || seeds=("$root/tests/fuzz/corpus/$target")
    dict=$root/tests/fuzz/$target.dict
    [ "$target" = image ] && dict=$root/tests/fuzz/image.dict
    echo "fuzz: $target for ${seconds}s"
    if ! "$build/tests/fuzz/fuzz_$target" "$corpus" "${seeds[@]}" -dict="$dict" -max_total_time="$seconds" \
        -max_len=2048 -malloc_limit_mb=64 -rss_limit_mb=1024 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$build/findings/$target-" 2>"$build/fuzz_$target.log"; then
        status=1
        echo "fuzz: $target FAILED; the last lines of its log:"
        tail -40 "$build/fuzz_$target.log"
    fi
    grep -E "^stat::(number_of_executed_units|peak_rss_mb|new_units_added)" "$build/fuzz_$target.log" | tr '\n' ' ' || true
    echo
done
exit $status
