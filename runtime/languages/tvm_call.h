// What a TVM library's launcher takes (filterlab_build/cuda_source.py writes
// the launchers; runtime/languages/tvm_variant.cpp calls them): one planar image
// in and out in device memory, every channel in one call, and the
// algorithm's scalars in the order its registration declares them. Plain C
// layout: the generated file and the runtime are compiled apart.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

struct filterlab_tvm_call {
    const uint8_t *input;
    uint8_t *output;
    int32_t channels, height, width;  // the input's; the output's follow from the filter
    int32_t in_plane, in_row;         // strides in bytes (TVM indexes in 32 bits)
    int32_t out_plane, out_row;
    int32_t ints[4];
    float floats[4];
    // 0: the most specialised path the call fits (its exact shape's, then the
    // aligned class's, then the generic one); 1: not the exact shapes'; 2: the generic path.
    int32_t paths_barred;
    cudaStream_t stream;
};

using filterlab_tvm_launcher = int (*)(const filterlab_tvm_call *);
