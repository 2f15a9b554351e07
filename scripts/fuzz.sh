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
# fuzz_one TARGET: SECONDS of one decoder's fuzzer; its verdict in $build/fuzz_TARGET.status.
fuzz_one() {
    local target=$1 corpus=$build/corpus/$1 dict=$root/tests/fuzz/$1.dict
    local seeds=("$root/tests/fuzz/corpus/$target")
    [ "$target" = image ] && seeds=("$root/tests/fuzz/corpus/png" "$root/tests/fuzz/corpus/pnm" "$root/tests/fuzz/corpus/bmp")
    mkdir -p "$corpus"
    local rc=0
    "$build/tests/fuzz/fuzz_$target" "$corpus" "${seeds[@]}" -dict="$dict" -max_total_time="$seconds" \
        -max_len=2048 -malloc_limit_mb=64 -rss_limit_mb=1024 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$build/findings/$target-" 2>"$build/fuzz_$target.log" || rc=$?
    echo $rc >"$build/fuzz_$target.status"
}
# As many fuzzers at once as there are cores: each still gets SECONDS of a
# core to itself (each libFuzzer process is single-threaded).
targets=(image png pnm bmp)
cores=$(nproc)
for ((i = 0; i < ${#targets[@]}; i += cores)); do
    for target in "${targets[@]:i:cores}"; do
        echo "fuzz: $target for ${seconds}s"
        fuzz_one "$target" &
    done
    wait
done
status=0
for target in "${targets[@]}"; do
    if [ "$(cat "$build/fuzz_$target.status")" != 0 ]; then
        status=1
        echo "fuzz: $target FAILED; the last lines of its log:"
        tail -40 "$build/fuzz_$target.log"
    fi
    echo -n "$target: "
    grep -E "^stat::(number_of_executed_units|peak_rss_mb|new_units_added)" "$build/fuzz_$target.log" | tr '\n' ' ' || true
    echo
done
exit $status
