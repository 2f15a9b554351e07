// Our 3x3 median (median_packed.cu) ported to OpenCL C, exact under
// FILTERS.md. As there, each work-item owns a 16-pixel strip of ROWS rows, and
// each column of three samples is sorted once and shared by the three outputs
// that use it; the sorted columns reduce to the median as the maximum of the
// minima, the median of the medians and the minimum of the maxima. What the
// port changes: OpenCL C has no warp shuffles, so the halo bytes are loaded
// by each work-item (they come from the cache), and the compare-exchanges
// are uchar16 min/max (the CUDA kernel packs 16-bit lanes for sm_90). Rows
// start 16-byte aligned (DeviceLayout, as for the CUDA kernels), so a strip
// is one 16-byte load or store: vload16 on a uchar pointer promises only
// byte alignment, so a compiler may split it into 16 byte loads (NVIDIA's
// does).
// Gold: reference::median.

#define ROWS 4

typedef struct {
    uchar left;    // x0 - 1
    uchar16 mid;   // x0 .. x0 + 15
    uchar right;   // x0 + 16
} Strip;

// One row's 18 samples around the strip, x clamped to the image.
Strip load_row(__global const uchar *row, int x0, int width) {
    Strip s;
    if (x0 >= 16 && x0 + 16 < width) {  // interior: one 16-byte load, two halo bytes
        s.left = row[x0 - 1];
        s.mid = as_uchar16(*(__global const uint4 *)(row + x0));
        s.right = row[x0 + 16];
        return s;
    }
    uchar b[16];
    for (int i = 0; i < 16; i++) b[i] = row[clamp(x0 + i, 0, width - 1)];
    s.left = row[clamp(x0 - 1, 0, width - 1)];
    s.mid = vload16(0, b);
    s.right = row[clamp(x0 + 16, 0, width - 1)];
    return s;
}

#define SORT2(a, b)              \
    {                            \
        const uchar16 lo = min(a, b); \
        b = max(a, b);           \
        a = lo;                  \
    }

// The column of three rows, sorted: lo <= mid <= hi per x.
typedef struct {
    uchar16 lo, mid, hi;           // x0 .. x0 + 15
    uchar lo_l, mid_l, hi_l;       // x0 - 1
    uchar lo_r, mid_r, hi_r;       // x0 + 16
} Columns;

Columns sort_columns(Strip a, Strip b, Strip c) {
    Columns s;
    uchar16 p = a.mid, q = b.mid, r = c.mid;
    SORT2(p, q);
    SORT2(q, r);
    SORT2(p, q);
    s.lo = p, s.mid = q, s.hi = r;
    uchar pl = a.left, ql = b.left, rl = c.left;
    s.lo_l = min(min(pl, ql), rl);
    s.hi_l = max(max(pl, ql), rl);
    s.mid_l = max(min(pl, ql), min(max(pl, ql), rl));
    uchar pr = a.right, qr = b.right, rr = c.right;
    s.lo_r = min(min(pr, qr), rr);
    s.hi_r = max(max(pr, qr), rr);
    s.mid_r = max(min(pr, qr), min(max(pr, qr), rr));
    return s;
}

// v shifted one pixel right (x - 1) or left (x + 1), the strip's neighbour filling in.
uchar16 from_left(uchar16 v, uchar l) { return (uchar16)(l, v.s0123, v.s4567, v.s89ab, v.scde); }
uchar16 from_right(uchar16 v, uchar r) { return (uchar16)(v.s1234, v.s5678, v.s9abc, v.sdef, r); }

uchar16 median3(uchar16 a, uchar16 b, uchar16 c) { return max(min(a, b), min(max(a, b), c)); }

__kernel void median3x3_strips(__global const uchar *in, long in_offset, int in_pitch, __global uchar *out,
                               long out_offset, int out_pitch, int width, int height) {
    const int x0 = get_global_id(0) * 16;
    const int y0 = get_global_id(1) * ROWS;
    if (x0 >= width || y0 >= height) return;
    __global const uchar *plane = in + in_offset;
    Strip rows[ROWS + 2];
    for (int r = 0; r < ROWS + 2; r++)
        rows[r] = load_row(plane + (long)clamp(y0 + r - 1, 0, height - 1) * in_pitch, x0, width);
    for (int r = 0; r < ROWS && y0 + r < height; r++) {
        const Columns s = sort_columns(rows[r], rows[r + 1], rows[r + 2]);
        const uchar16 lows = max(max(from_left(s.lo, s.lo_l), s.lo), from_right(s.lo, s.lo_r));
        const uchar16 mids = median3(from_left(s.mid, s.mid_l), s.mid, from_right(s.mid, s.mid_r));
        const uchar16 highs = min(min(from_left(s.hi, s.hi_l), s.hi), from_right(s.hi, s.hi_r));
        const uchar16 result = median3(lows, mids, highs);
        __global uchar *row = out + out_offset + (long)(y0 + r) * out_pitch;
        if (x0 + 16 <= width) {
            *(__global uint4 *)(row + x0) = as_uint4(result);
        } else {
            uchar b[16];
            vstore16(result, 0, b);
            for (int i = 0; x0 + i < width; i++) row[x0 + i] = b[i];
        }
    }
}
