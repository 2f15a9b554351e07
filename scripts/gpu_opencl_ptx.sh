#!/usr/bin/env bash
# What the hand-written OpenCL ports became on the H100 (issue 17): the PTX
# NVIDIA's OpenCL compiler made of cl_packed, cl_wide_rows and cl_bubble
# (FILTERLAB_OPENCL_BINARIES), and the PTX nvcc embedded for the CUDA kernels
# they port (cuobjdump -ptx), each kernel's entry cut out for
# scripts/ptx_mix.py. usage, on that machine after unpacking the bundle:
#   bash scripts/gpu_opencl_ptx.sh OUT_DIR
set -uo pipefail
out=$1
fl=${FILTERLAB_EXE:-.device-build/filterlab}
mkdir -p "$out/icd" "$out/opencl" "$out/cuda"
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 >"$out/icd/nvidia.icd"
export OCL_ICD_VENDORS=$out/icd FILTERLAB_OPENCL_BINARIES=$out/opencl
image=tests/images/gray.png
"$fl" run --filter median --variant cl_packed -i $image -o /tmp/m.png -q
"$fl" run --filter median --variant cl_bubble -i $image -o /tmp/b.png -q
"$fl" run --filter box --variant cl_wide_rows -i $image -o /tmp/w1.png -q
"$fl" run --filter box --variant cl_wide_rows -i $image -o /tmp/w7.png -q -p radius=7
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
"$cuobjdump" -ptx "$fl" >"$out/all.ptx" 2>&1
# Each kernel's .entry, up to its closing brace.
for kernel in median_packed_kernelILi3E box3x3_packed_kernel box_wide_rows_kernelILi7E bubble_kernelILi3E; do
    awk -v k="$kernel" '/^\.visible \.entry|^\.entry/ { keep = index($0, k) > 0 } keep { print } keep && /^}/ { keep = 0 }' \
        "$out/all.ptx" >"$out/cuda/$kernel.ptx"
done
rm -f "$out/all.ptx"
ls -l "$out/opencl" "$out/cuda"
