// What the emulations' mains (box_main.cpp, gaussian_main.cpp,
// median_main.cpp) share: one generated library's launcher (LAUNCHER, -D) run
// on a random image pitched as the harness pitches it, through the counted
// output pointer (counted_output.h), and every output byte compared with the
// filter's plain reference; each output must be stored exactly once and
// nothing around it (row padding, past the last plane) stored at all.
#pragma once
#include <cstdio>
#include <random>
#include <vector>
#include "counted_output.h"
extern "C" int LAUNCHER(const filterlab_tvm_call *call);
static int clampi(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }
static int pitched(int w) { return (w + 63) / 64 * 64; }

// Runs LAUNCHER on C planes of H x W (its scalars `ints`), an output of OH x OW a plane, and compares
// output (c, y, x) with want(plane c of the input, y, x), the input's rows `pitched(W)` apart. Returns
// how many bytes were wrong, stored other than once, or stored outside the output; prints the first few.
template <class Want>
long checked_run(int C, int H, int W, int OH, int OW, const int32_t (&ints)[4], Want want) {
    const int pitch = pitched(W), plane = pitch * H, opitch = pitched(OW), oplane = opitch * OH;
    std::mt19937 rng(H * 131 + W);
    std::vector<uint8_t> in(size_t(C) * plane), out(size_t(C) * oplane + 64, 0xAB);
    for (auto &v : in) v = rng() & 255;
    std::vector<std::atomic<int>> writes(out.size());
    g_output_base = out.data();
    g_output_writes = writes.data();
    filterlab_tvm_call call{in.data(), out.data(), C, H, W, plane, pitch, oplane, opitch,
                            {ints[0], ints[1], ints[2], ints[3]}, {}, 0};
    LAUNCHER(&call);
    long bad = 0;
    for (int c = 0; c < C; c++)
        for (int y = 0; y < OH; y++)
            for (int x = 0; x < opitch; x++) {
                const size_t at = size_t(c) * oplane + size_t(y) * opitch + x;
                const int stored = writes[at];
                if (x >= OW) {  // the row padding stays untouched
                    if ((stored || out[at] != 0xAB) && bad++ < 5) printf("  wrote padding c=%d y=%d x=%d\n", c, y, x);
                    continue;
                }
                const uint8_t w = want(&in[size_t(c) * plane], y, x), got = out[at];
                if (got != w && bad++ < 5) printf("  mismatch c=%d y=%d x=%d got %d want %d\n", c, y, x, got, w);
                if (stored != 1 && bad++ < 5) printf("  c=%d y=%d x=%d stored %d times\n", c, y, x, stored);
            }
    for (int i = 0; i < 64; i++)
        if ((writes[size_t(C) * oplane + i] || out[size_t(C) * oplane + i] != 0xAB) && bad++ < 5)
            printf("  wrote past the image\n");
    return bad;
}
