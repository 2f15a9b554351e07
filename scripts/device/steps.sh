# The steps a device call script runs side by side, written once (sourced after
# the --shell-env line: they use $fl and $san). Each starts a background job
# and logs to a file of its own under the directory given, ending with the
# job's exit status (124: cut by the timeout); the script `wait`s.
#
#   source scripts/device/steps.sh
#   check_variant $OUT/c1 box hw_block_sums            # full check matrix: DIR/check_box.hw_block_sums.txt
#   sanitize_variant $OUT/c1 box hw_block_sums         # memcheck (leak check), racecheck, initcheck:
#                                                      # DIR/san/box.hw_block_sums.TOOL.log
# STEP_TIMEOUT (seconds, default 300) bounds each job.

check_variant() {  # DIR FILTER VARIANT [check's options]
    local dir=$1 filter=$2 variant=$3
    shift 3
    mkdir -p "$dir"
    { timeout "${STEP_TIMEOUT:-300}" "$fl" check --filter "$filter" --variant "$variant" "$@"
      echo "exit status $?"; } > "$dir/check_$filter.$variant.txt" 2>&1 &
}

sanitize_variant() {  # DIR FILTER VARIANT [TOOL...]: every tool when none is named
    local dir=$1 filter=$2 variant=$3 tool
    shift 3
    local tools=("$@")
    [ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck initcheck)
    mkdir -p "$dir/san"
    for tool in "${tools[@]}"; do
        local extra=()
        [ "$tool" = memcheck ] && extra=(--leak-check full)
        { timeout "${STEP_TIMEOUT:-300}" "$san" --tool "$tool" "${extra[@]}" --error-exitcode 99 --print-limit 20 \
              "$fl" check --filter "$filter" --variant "$variant" --sanitizer-matrix
          echo "exit status $?"; } > "$dir/san/$filter.$variant.$tool.log" 2>&1 &
    done
}
