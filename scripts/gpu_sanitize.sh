#!/usr/bin/env bash
# compute-sanitizer over every CUDA variant: memcheck (with the leak check),
# racecheck and initcheck, each running `filterlab check --sanitizer-matrix`
# on one variant (odd and degenerate sizes, 1 and 3 channels, every parameter
# value the variant supports: see `check --help`). Prints one summary line per variant; the full
# logs go to $SANITIZER_LOGS (default sanitizer-logs/). Run on the GPU machine
# from the repository root, the bundle unpacked (scripts/device_bundle.sh):
#   bash scripts/gpu_sanitize.sh [JOBS] [FILTER...]
# Exit status 1 when any tool reports an error or any case fails.
#   bash scripts/gpu_sanitize.sh --summarize   (the summary of $SANITIZER_LOGS/results.txt again)
set -uo pipefail
summarize_only=0
[ "${1:-}" = --summarize ] && summarize_only=1 && shift
jobs=${1:-8}
shift || true
filters=("$@")
export FILTERLAB_EXE=${FILTERLAB_EXE:-$PWD/.device-build/filterlab}
export SANITIZER=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
export SANITIZER_LOGS=${SANITIZER_LOGS:-$PWD/sanitizer-logs}
mkdir -p "$SANITIZER_LOGS"

# One tool on one variant: prints "filter variant tool errors passed failed seconds exit".
one() {
    local filter=$1 variant=$2 tool=$3 log="$SANITIZER_LOGS/$1.$2.$3.log" extra=() start errors
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    start=$(date +%s)
    "$SANITIZER" --tool "$tool" "${extra[@]}" --error-exitcode 99 --print-limit 20 \
        "$FILTERLAB_EXE" check --filter "$filter" --variant "$variant" --sanitizer-matrix >"$log" 2>&1
    local status=$?
    if [ "$tool" = racecheck ]; then
        errors=$(grep -oE "RACECHECK SUMMARY: [0-9]+ hazards" "$log" | awk '{print $3}')
    else
        errors=$(grep -oE "ERROR SUMMARY: [0-9]+ errors?$" "$log" | awk '{print $3}')
    fi
    local totals
    totals=$(grep -oE "^[0-9]+ passed, [0-9]+ failed" "$log" | awk '{print $1, $3}')
    echo "$filter $variant $tool ${errors:-?} ${totals:-? ?} $(($(date +%s) - start)) $status"
}
export -f one

if ((!summarize_only)); then
# In reverse order of `filterlab list`, so that NL-means, the slowest under
# the sanitizers (hundreds of launches a case), starts first.
"$FILTERLAB_EXE" list --json | python3 -c '
import json, sys
for v in json.load(sys.stdin)["variants"]:
    if v["backend"] == "cuda":
        print(v["filter"], v["variant"])' | tac | while read -r filter variant; do
    if ((${#filters[@]})) && ! printf '%s\n' "${filters[@]}" | grep -qx "$filter"; then continue; fi
    for tool in memcheck racecheck initcheck; do echo "$filter $variant $tool"; done
done | xargs -P "$jobs" -L 1 bash -c 'one "$@"' _ >>"$SANITIZER_LOGS/results.txt"
fi

# One line per variant; where a tool ran more than once (results are
# appended across runs), its last line counts.
awk '
    { key = $1 " " $2; if (!(key in seen)) { order[n++] = key; seen[key] = 1 }
      if (!((key, $3) in last)) { tools[key] = tools[key] " " $3; count[key]++ }
      last[key, $3] = $0 }
    END { for (i = 0; i < n; i++) { k = order[i]; text = ""; secs = 0; bad = 0; cases = ""
            split(substr(tools[k], 2), names, " ")
            for (j = 1; j <= count[k]; j++) { split(last[k, names[j]], f, " ")
                text = text sprintf("%s %s%s, ", f[3], f[4], f[3] == "racecheck" ? " hazards" : " errors")
                cases = sprintf("check %s passed, %s failed", f[5], f[6]); secs += f[7]
                if (f[4] != "0" || f[6] != "0" || f[8] != "0") bad = 1 }
            if (count[k] < 3) bad = 1
            verdict = count[k] < 3 ? "INCOMPLETE: " count[k] " of 3 tools finished" : bad ? "FAIL" : "ok"
            printf "%-40s %s%s (%d s under the tools) %s\n", k, text, cases, secs, verdict
            failed += bad }
          printf "%d variants, %d with a finding, a failed case or a tool not finished\n", n, failed
          exit failed ? 1 : 0 }' "$SANITIZER_LOGS/results.txt"
