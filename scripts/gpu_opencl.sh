#!/usr/bin/env bash
# OpenCL on the H100 machine (issue 17), in one device call: NVIDIA's OpenCL
# through a vendors folder of our own (its /etc/OpenCL/vendors lists only
# PoCL), every OpenCL variant checked (test_variants --backend=opencl), then
# each OpenCL variant timed beside its CUDA counterpart in the same run, and
# `filterlab run` over MPI ranks with CUDA variants (tests/test_mpi.sh cuda).
# usage, from the repository root on that machine, after unpacking the bundle:
#   bash scripts/gpu_opencl.sh OUT_DIR
set -uo pipefail
out=$1
fl=${FILTERLAB_EXE:-.device-build/filterlab}
mkdir -p "$out/icd" "$out/runs"
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 >"$out/icd/nvidia.icd"
export OCL_ICD_VENDORS=$out/icd
{
    echo "\$ ls /usr/lib/x86_64-linux-gnu | grep -i 'libOpenCL\|libmpi.so'"
    ls /usr/lib/x86_64-linux-gnu | grep -i 'libOpenCL\|libmpi.so'
    echo "\$ ldd filterlab | grep -i 'opencl\|mpi\|not found'"
    ldd "$fl" | grep -i 'opencl\|mpi\|not found'
    echo "\$ OCL_ICD_VENDORS=$out/icd filterlab info"
    "$fl" info
} >"$out/info.txt" 2>&1
echo "\$ OCL_ICD_VENDORS=... test_variants --backend=opencl" >"$out/variants_opencl.txt"
.device-build/test_variants --backend=opencl >>"$out/variants_opencl.txt" 2>&1
echo "rc=$?" >>"$out/variants_opencl.txt"
twins=(--variant opencl_tile --variant cuda_tile --variant opencl_shared_tile --variant cuda_shared_tile
       --variant cl_wide_rows --variant hw_wide_rows --variant opencl_shared_columns --variant cuda_shared_columns
       --variant opencl_register_columns --variant cuda_register_columns --variant opencl_register_block
       --variant cuda_register_block --variant cl_bubble --variant hw_bubble --variant cl_packed --variant hw_packed
       --variant opencl_shared_rows --variant cuda_shared_rows)
"$fl" bench --backend cuda --backend opencl --filter box --filter median --filter gaussian --sizes 4096,8192 \
    "${twins[@]}" --out "$out/runs" >"$out/bench_twins.txt" 2>&1
"$fl" bench --backend cuda --backend opencl --filter nlmeans --sizes 1024 --variant opencl_fused --variant cuda_fused \
    --variant opencl_per_offset --variant cuda_per_offset --out "$out/runs" >"$out/bench_nlmeans.txt" 2>&1
bash tests/test_mpi.sh "$fl" cuda >"$out/mpi_h100.txt" 2>&1
echo "rc=$?" >>"$out/mpi_h100.txt"
tar -C "$out" -cf "$out/runs.tar" runs && rm -rf "$out/runs"
