#!/usr/bin/env bash
# Installs build/ to a temporary prefix and builds the examples against it as
# a user would: Debian's cmake and pkg-config, a PATH without the venv, no
# FilterLab source or Halide on any include path. Runs the CPU examples on a
# real picture and compares their bytes with `filterlab run` (the reference
# variant). The CUDA example is built (and run where a GPU answers).
# usage: scripts/test_install.sh [BUILD_DIR] [KEEP_DIR]  (KEEP_DIR: keep prefix and examples there)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$(realpath "${1:-build}")
work=${2:-}
if [ -z "$work" ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
prefix=$work/prefix
"$(command -v cmake)" --install "$build" --prefix "$prefix" >/dev/null
clean_env=(env -i PATH=/usr/bin:/bin HOME="$work")

# The examples copied out, as a user would take them.
cp -r examples "$work/examples"
"${clean_env[@]}" /usr/bin/cmake -S "$work/examples/cmake" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
    -DWITH_CUDA=ON -DCUDAToolkit_ROOT=/usr/local/cuda >/dev/null
"${clean_env[@]}" /usr/bin/cmake --build "$work/cmake" >/dev/null
"${clean_env[@]}" PKG_CONFIG_PATH="$prefix/lib/pkgconfig" make -B -s -C "$work/examples/pkgconfig" >/dev/null
mv "$work/examples/pkgconfig/gaussian_c" "$work/gaussian_c"

# The consumers must not reach back into the source tree or the venv.
for exe in "$work"/cmake/box_api "$work"/cmake/box_schedule "$work"/cmake/median_cuda "$work"/gaussian_c; do
    libraries=$(ldd "$exe")  # read whole: a pipe into grep -q races under pipefail (issue 56)
    if grep -q -e "$build" -e "$root/.venv" <<<"$libraries"; then
        echo "test_install: $exe links into the build tree" >&2
        exit 1
    fi
done

filterlab=$build/runtime/filterlab
"$filterlab" run --filter median --input tests/images/gray.png --output "$work/in.pgm" --quiet
check() {  # NAME FILTER PARAM: the example's output against the reference's
    "$filterlab" run --filter "$2" --param "$3" --input "$work/in.pgm" --output "$work/$1.ref.pgm" --quiet
    cmp "$work/$1.pgm" "$work/$1.ref.pgm"
    echo "test_install: $1: same bytes as the reference ($2, $3)"
}
"$work/cmake/box_api" "$work/in.pgm" "$work/box_api.pgm"
check box_api box radius=2
"$work/cmake/box_schedule" "$work/in.pgm" "$work/box_schedule.pgm"
check box_schedule box radius=2
"$work/gaussian_c" "$work/in.pgm" "$work/gaussian_c.pgm"
check gaussian_c gaussian sigma=1.5
# The installed CLI works from the prefix alone: a small bench, then its report
# (no source tree: lines of code are not counted, and it says so).
installed=$prefix/bin/filterlab
"${clean_env[@]}" "$installed" bench --filter box --backend cpu --variant reference --sizes 32 --min-reps 3 \
    --min-time 0 --quiet --out "$work/runs" >/dev/null
"${clean_env[@]}" "$installed" report "$work"/runs/* --source "$work/no-source" --out "$work/report" \
    2>"$work/report.err" >/dev/null
grep -q "lines of code not counted" "$work/report.err"
grep -q "^# " "$work/report/report.md"
build_info=$("$filterlab" info)
if grep -q "^plugin: *opencv" <<<"$build_info"; then
    installed_info=$("${clean_env[@]}" "$installed" info)
    grep -q "^plugin: *opencv" <<<"$installed_info" || {
        echo "test_install: the installed filterlab finds no OpenCV plugin" >&2
        exit 1
    }
fi
echo "test_install: the installed filterlab benches and reports from the prefix alone"
if grep -q "^GPU: *NVIDIA" <<<"$build_info"; then
    "$work/cmake/median_cuda" "$work/in.pgm" "$work/median_cuda.pgm"
    check median_cuda median size=5
else
    echo "test_install: median_cuda built; not run (no GPU)"
fi
