// The CUDA that TVM's generated kernels use, emulated on the CPU (for
// tests/tvm/emulate_box_cuda.py and its kin): a block's threads are std::threads that
// meet at __syncthreads on a std::barrier, a block's shared arrays are
// function statics (blocks run one at a time), the launch a loop over blocks.
// It checks a schedule's indexing, guards and shared-memory layout without a
// GPU, not the GPU's memory model or speed.
#pragma once
#include <algorithm>
#include <barrier>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>
struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
thread_local dim3 threadIdx, blockIdx;
typedef unsigned char uchar;
typedef unsigned int uint;
using std::max;
using std::min;
static std::barrier<> *g_bar;
inline void __syncthreads() { g_bar->arrive_and_wait(); }
#define __global__
#define __host__
#define __device__
#define __launch_bounds__(n)
#define __maxnreg__(n)
struct uint4 { unsigned x, y, z, w; };  // the vector stores' types
// The SIMD min and max of each 16-bit lane (median_networks.packed_op's "cuda").
inline unsigned lanes2(unsigned a, unsigned b, const uint16_t &(*f)(const uint16_t &, const uint16_t &)) {
    return f(uint16_t(a), uint16_t(b)) | unsigned(f(uint16_t(a >> 16), uint16_t(b >> 16))) << 16;
}
inline unsigned __vminu2(unsigned a, unsigned b) { return lanes2(a, b, std::min<uint16_t>); }
inline unsigned __vmaxu2(unsigned a, unsigned b) { return lanes2(a, b, std::max<uint16_t>); }
struct uint2 { unsigned x, y; };
#define __restrict__ __restrict
typedef int cudaStream_t;
inline int cudaGetLastError() { return 0; }
struct filterlab_tvm_call {  // runtime/languages/tvm_call.h's, without CUDA
    const uint8_t *input; uint8_t *output;
    int32_t channels, height, width, in_plane, in_row, out_plane, out_row;
    int32_t ints[4]; float floats[4]; int32_t paths_barred; cudaStream_t stream;
};
inline void emu_launch(dim3 grid, dim3 block, int, std::function<void()> body) {
    const unsigned n = block.x * block.y * block.z;
    for (unsigned bz = 0; bz < grid.z; bz++)
        for (unsigned by = 0; by < grid.y; by++)
            for (unsigned bx = 0; bx < grid.x; bx++) {
                std::barrier<> bar(n);
                g_bar = &bar;
                std::vector<std::thread> ts;
                for (unsigned t = 0; t < n; t++)
                    ts.emplace_back([&, t] {
                        blockIdx = dim3(bx, by, bz);
                        threadIdx = dim3(t % block.x, t / block.x % block.y, t / (block.x * block.y));
                        body();
                    });
                for (auto &t : ts) t.join();
            }
}
