// Runs one generated Gaussian library's launcher (LAUNCHER, -D) on the CPU
// emulation (shim.h) and compares every output with FILTERS.md's Gaussian,
// or with POOL=2 (-D) its 2x2 max pool (gaussian_maxpool: floor(W/2) x
// floor(H/2) outputs); each output must be stored exactly once
// (counted_output.h counts the kernels' byte stores) and nothing around the
// output (row padding, past the last plane) stored at all.
//   gaussian_main W0 W1 W2 CHANNELS HEIGHT WIDTH    w0 the centre weight; rows pitched as the harness does (64 bytes)
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#ifndef POOL
#define POOL 1
#endif
extern "C" int LAUNCHER(const filterlab_tvm_call *call);
static int clampi(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }
static int pitched(int w) { return (w + 63) / 64 * 64; }

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
    const int C = atoi(argv[4]), H = atoi(argv[5]), W = atoi(argv[6]), OH = H / POOL, OW = W / POOL;
    const int pitch = pitched(W), plane = pitch * H, opitch = pitched(OW), oplane = opitch * OH;
    std::mt19937 rng(H * 131 + W);
    std::vector<uint8_t> in(size_t(C) * plane), out(size_t(C) * oplane + 64, 0xAB);
    for (auto &v : in) v = rng() & 255;
    std::vector<std::atomic<int>> writes(out.size());
    g_output_base = out.data();
    g_output_writes = writes.data();
    filterlab_tvm_call call{in.data(), out.data(), C, H, W, plane, pitch, oplane, opitch, {w[2], w[3], w[4]}, {}, 0};
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
                const uint8_t want = expected(&in[size_t(c) * plane], w, H, W, y, x), got = out[at];
                if (got != want && bad++ < 5) printf("  mismatch c=%d y=%d x=%d got %d want %d\n", c, y, x, got, want);
                if (stored != 1 && bad++ < 5) printf("  c=%d y=%d x=%d stored %d times\n", c, y, x, stored);
            }
    for (int i = 0; i < 64; i++)
        if ((writes[size_t(C) * oplane + i] || out[size_t(C) * oplane + i] != 0xAB) && bad++ < 5)
            printf("  wrote past the image\n");
    printf("%s %dx%dx%d: %s (%ld bad)\n", argv[0], C, H, W, bad ? "FAIL" : "ok", bad);
    return bad != 0;
}
