// What the nlmeans kernels share: all channels of an image at once (the patch
// distance sums over them), the contract's parameters, stream-ordered scratch
// memory, and the final normalisation. Gold: reference::nlmeans.
#pragma once

#include <cmath>
#include <cstddef>
#include <utility>

#include "plane.h"
#include "registry.h"
#include "scratch.cuh"

namespace filterlab::handwritten::nlmeans {

constexpr int kMaxChannels = 3;

// The planes of one device image (input and output), up to three channels.
struct Planes {
    const uint8_t *in[kMaxChannels];
    uint8_t *out[kMaxChannels];
    int width, height, channels;
    std::ptrdiff_t in_pitch, out_pitch;

    __device__ float sample(int x, int y, int c) const {  // J with the clamp border
        return in[c][clamp_index(y, height - 1) * in_pitch + clamp_index(x, width - 1)];
    }
};

inline Planes planes(const PlanarView &in, const PlanarView &out) {
    if (in.channels < 1 || in.channels > kMaxChannels) throw Error("nlmeans kernels take 1 to 3 channels");
    Planes p{};
    for (int c = 0; c < in.channels; c++) {
        p.in[c] = in.data + c * in.plane_stride;
        p.out[c] = out.data + c * out.plane_stride;
    }
    p.width = in.width;
    p.height = in.height;
    p.channels = in.channels;
    p.in_pitch = in.row_stride;
    p.out_pitch = out.row_stride;
    return p;
}

struct Params {
    int patch, search;
    float inverse_scale;  // 1 / (C * P * h^2): weight = exp(-patch_sum * inverse_scale)
};

inline Params params(const ParamValues &values, int channels) {
    const int p = static_cast<int>(values.at("patch"));
    const double h = values.at("h"), patch_size = double(2 * p + 1) * double(2 * p + 1);
    return {p, static_cast<int>(values.at("search")), static_cast<float>(1.0 / (channels * patch_size * h * h))};
}

// out = round_half_up(clamp(numerator / denominator, 0, 255)) from C+1 float
// planes of width*height accumulators (the numerators, then the denominator).
void normalise(const Planes &p, const float *accum);

inline dim3 pixel_grid(int width, int height, dim3 block) {
    return dim3((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
}

// The fused kernels (hw_fused, hw_symmetric) stage the input a tile reaches
// in shared memory, one plane per channel: as bytes here.
struct Staged {
    const uint8_t *data;
    int pitch, plane;
    __device__ float magic(int c, int row, int column) const {  // 2^23 + sample, exactly
        return __int_as_float(0x4B000000 | data[c * plane + row * pitch + column]);
    }
    // What column_sums reads: a float whose differences are the samples' exactly.
    __device__ float value(int c, int row, int column) const { return magic(c, row, column); }
};

__device__ inline float fast_exp2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

// Their phase 2's row of V: N floats from `from` (16-byte aligned) into
// registers, as 16-byte shared-memory loads.
template <int N>
__device__ __forceinline__ void load_v_row(const float *from, float (&row)[N]) {
    static_assert(N % 4 == 0, "whole float4 chunks");
    const float4 *chunk = reinterpret_cast<const float4 *>(from);
#pragma unroll
    for (int k = 0; k < N / 4; k++) {
        const float4 q = chunk[k];
        row[4 * k] = q.x, row[4 * k + 1] = q.y, row[4 * k + 2] = q.z, row[4 * k + 3] = q.w;
    }
}

// Their phase 1, for thread t: V(r, t) = the sum over the patch rows of r
// (r = 0 .. Rows - 1) of the squared differences in column t, for the offset
// (dx, dy), summed over the channels, into v[r * Pitch + t]. The patch rows of
// V row r are staged rows row0 + r .. row0 + r + 2P, column column0 + t; with
// one channel `center` holds them (as in.value gives them) instead. D is
// computed once per element and V kept as a running sum (+ the new row, - the
// row leaving the patch, both in registers). Input: Staged or alike.
template <int P, int C, int Rows, int Pitch, typename Input>
__device__ inline void column_sums(const Input &in, const float (&center)[C == 1 ? Rows + 2 * P : 1], int t,
                                   int row0, int column0, int dx, int dy, float *v) {
    constexpr int n = Rows + 2 * P;
    float d[n];
    float running = 0;
#pragma unroll
    for (int k = 0; k < n; k++) {  // D at V row k - p
        float sum = 0;
#pragma unroll
        for (int c = 0; c < C; c++) {
            const float here = C == 1 ? center[k] : in.value(c, k + row0, t + column0);
            const float e = here - in.value(c, k + row0 + dy, t + column0 + dx);
            sum = fmaf(e, e, sum);
        }
        d[k] = sum;
        running += sum;
        if (k >= 2 * P) {
            v[(k - 2 * P) * Pitch + t] = running;
            running -= d[k - 2 * P];
        }
    }
}

}  // namespace filterlab::handwritten::nlmeans
