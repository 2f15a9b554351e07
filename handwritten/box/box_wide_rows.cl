// Our box filter (box_wide_rows.cu, any radius R of the contract) ported to OpenCL C,
// exact under FILTERS.md. As there, each work-item owns a 16-pixel column
// strip (one 16-byte load and store per row) and walks ROWS output rows down
// it: the 16 row sums slide along the strip and the column sums are running
// sums (each new row adds its row sums and drops the row that left the
// window), so the cost does not grow with R. What the port changes: OpenCL C
// has no warp shuffles, so each work-item loads its left and right 16-byte
// neighbours itself (they come from the cache). R is a build option, so the
// division by n = (2R+1)^2 is by a constant. Rows start 16-byte aligned
// (DeviceLayout, as for the CUDA kernels), so a strip is one 16-byte load or
// store (load16/store16): vload16 on a uchar pointer promises only byte
// alignment, so a compiler may split it into 16 byte loads (NVIDIA's does).
// Gold: reference::box.

#define N ((2 * R + 1) * (2 * R + 1))

// 16 bytes at a 16-byte aligned address.
uchar16 load16(__global const uchar *p) { return as_uchar16(*(__global const uint4 *)p); }
void store16(uchar16 v, __global uchar *p) { *(__global uint4 *)p = as_uint4(v); }
#define ROWS (R <= 2 ? 16 : 32)

// The 16 horizontal sums of 2R+1 samples centred on x0 .. x0 + 15.
void row_sums(__global const uchar *row, int x0, int width, bool edge, uint *sums) {
    if (!edge) {
        uchar s[48];
        vstore16(load16(row + x0 - 16), 0, s);
        vstore16(load16(row + x0), 0, s + 16);
        vstore16(load16(row + x0 + 16), 0, s + 32);
        uint sum = 0;
#pragma unroll
        for (int k = 16 - R; k <= 16 + R; k++) sum += s[k];
        sums[0] = sum;
#pragma unroll
        for (int i = 1; i < 16; i++) sums[i] = sum += s[i + 16 + R] - s[i + 15 - R];
    } else {  // the first and last strips: clamp every x
        for (int i = 0; i < 16; i++) {
            uint sum = 0;
            for (int k = -R; k <= R; k++) sum += row[clamp(x0 + i + k, 0, width - 1)];
            sums[i] = sum;
        }
    }
}

__kernel void box_wide_rows(__global const uchar *in, long in_offset, int in_pitch, __global uchar *out,
                            long out_offset, int out_pitch, int width, int height) {
    const int x0 = get_global_id(0) * 16;
    const int y0 = get_global_id(1) * ROWS;
    if (x0 >= width || y0 >= height) return;
    // Interior strips read x0 - 16 .. x0 + 31 unclamped: all inside the row.
    const bool edge = !(x0 >= 16 && x0 + 32 <= width);
    __global const uchar *plane = in + in_offset;
    uint column[16], sums[16];
    for (int i = 0; i < 16; i++) column[i] = 0;
    for (int j = -R; j <= R; j++) {
        row_sums(plane + (long)clamp(y0 + j, 0, height - 1) * in_pitch, x0, width, edge, sums);
        for (int i = 0; i < 16; i++) column[i] += sums[i];
    }
    for (int y = y0; y < y0 + ROWS && y < height; y++) {
        uchar result[16];
        for (int i = 0; i < 16; i++) result[i] = (uchar)((column[i] + N / 2) / N);
        __global uchar *row = out + out_offset + (long)y * out_pitch;
        if (x0 + 16 <= width) {
            store16(vload16(0, result), row + x0);
        } else {
            for (int i = 0; x0 + i < width; i++) row[x0 + i] = result[i];
        }
        if (y + 1 < y0 + ROWS && y + 1 < height) {  // slide the window down one row
            uint leaving[16];
            row_sums(plane + (long)clamp(y + R + 1, 0, height - 1) * in_pitch, x0, width, edge, sums);
            row_sums(plane + (long)clamp(y - R, 0, height - 1) * in_pitch, x0, width, edge, leaving);
            for (int i = 0; i < 16; i++) column[i] += sums[i] - leaving[i];
        }
    }
}
