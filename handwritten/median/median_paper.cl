// The median of the seed paper, in OpenCL C, exact under FILTERS.md: the
// plane is first copied into a buffer padded by PAD = K/2 on every side (edge
// samples repeated: the clamp border), so that the median kernel gathers its
// K x K window without bounds checks, then bubble-sorts it in private memory.
// Work-groups of 16 x 16, as in the paper. K and PAD are build options.
// Gold: reference::median.

__kernel void pad_clamp(__global const uchar *in, long in_offset, int in_pitch, __global uchar *padded,
                        long unused_offset, int unused_pitch, int width, int height) {
    const int x = get_global_id(0), y = get_global_id(1);
    const int padded_width = width + 2 * PAD;
    if (x >= padded_width || y >= height + 2 * PAD) return;
    const int sx = clamp(x - PAD, 0, width - 1), sy = clamp(y - PAD, 0, height - 1);
    padded[(long)y * padded_width + x] = in[in_offset + (long)sy * in_pitch + sx];
}

__kernel void median_bubble(__global const uchar *padded, long unused_offset, int unused_pitch, __global uchar *out,
                            long out_offset, int out_pitch, int width, int height) {
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height) return;
    const int padded_width = width + 2 * PAD;
    uchar window[K * K];
    for (int j = 0; j < K; j++)
        for (int i = 0; i < K; i++) window[j * K + i] = padded[(long)(y + j) * padded_width + x + i];
    for (int pass = 0; pass < K * K - 1; pass++)
        for (int i = 0; i < K * K - 1 - pass; i++)
            if (window[i] > window[i + 1]) {
                const uchar t = window[i];
                window[i] = window[i + 1];
                window[i + 1] = t;
            }
    out[out_offset + (long)y * out_pitch + x] = window[K * K / 2];
}
