// Runs one generated Gaussian library's launcher (LAUNCHER, -D) on the CPU
// emulation (shim.h) and compares every output with FILTERS.md's Gaussian,
// or with POOL=2 (-D) its 2x2 max pool (gaussian_maxpool: floor(W/2) x
// floor(H/2) outputs) (checked_run.h: each output stored exactly once,
// nothing around the output stored at all).
//   gaussian_main W0 W1 W2 CHANNELS HEIGHT WIDTH    w0 the centre weight; rows pitched as the harness does (64 bytes)
#include <algorithm>
#include <cstdlib>
#include "checked_run.h"
#ifndef POOL
#define POOL 1
#endif

// FILTERS.md's Gaussian at (y, x) of plane `in`, pooled over POOL x POOL blurred pixels.
static uint8_t expected(const uint8_t *in, const int *w, int H, int W, int y, int x) {
    uint8_t best = 0;
    for (int dy = 0; dy < POOL; dy++)
        for (int dx = 0; dx < POOL; dx++) {
            int64_t s = 0;
            for (int i = -2; i <= 2; i++)
                for (int j = -2; j <= 2; j++)
                    s += int64_t(w[i + 2]) * w[j + 2] *
                         in[size_t(clampi(POOL * y + dy + i, H - 1)) * pitched(W) + clampi(POOL * x + dx + j, W - 1)];
            best = std::max(best, uint8_t((s + 32768) >> 16));
        }
    return best;
}

int main(int argc, char **argv) {
    const int w[5] = {atoi(argv[3]), atoi(argv[2]), atoi(argv[1]), atoi(argv[2]), atoi(argv[3])};
    const int C = atoi(argv[4]), H = atoi(argv[5]), W = atoi(argv[6]);
    const int32_t ints[4] = {w[2], w[3], w[4], 0};
    const long bad = checked_run(C, H, W, H / POOL, W / POOL, ints,
                                 [&](const uint8_t *in, int y, int x) { return expected(in, w, H, W, y, x); });
    printf("%s %dx%dx%d: %s (%ld bad)\n", argv[0], C, H, W, bad ? "FAIL" : "ok", bad);
    return bad != 0;
}
