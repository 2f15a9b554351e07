# Nsight Compute of one whole-image call of the frozen points that moved a row, beside the schedule they came
# from and the hand kernel (lever's ncu step, short metrics: time, instructions, registers, occupancy, DRAM).
set -u
V="median/tvm_register_block_pairs_2x4_r96 median/tvm_register_block_pairs_2x4 median/tvm_register_block_pairs median/hw_row_pairs"
V="$V gaussian/tvm_rows8_r128 gaussian/tvm_rows8 gaussian/hw_columns_first"
python3 scripts/device/run.py lever $OUT/a --only ncu --set ncu.variants="$V" 2>&1 | tail -4
{ cat $OUT/a/summary.txt; echo "=== ncu.txt"; cat $OUT/a/ncu.txt; } > $OUT/all.txt
ls $OUT/a
