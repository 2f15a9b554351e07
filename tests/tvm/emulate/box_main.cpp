// Runs one generated box library's launcher (LAUNCHER, -D) on the CPU
// emulation (shim.h) and compares every output with FILTERS.md's box, and the
// bytes around the image (row padding, past the last row) with their fill.
// The kernels' output pointer is a counted_output.h: each output must also be
// stored exactly once and nothing around it stored at all.
//   box_main RADIUS CHANNELS HEIGHT WIDTH       rows pitched as the harness does (64 bytes)
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include "counted_output.h"
extern "C" int LAUNCHER(const filterlab_tvm_call *call);
static int clampi(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

// FILTERS.md's box of plane `in`: column sums then row sums over the clamped image, straightforward and exact.
static std::vector<uint8_t> expected(const uint8_t *in, int r, int H, int W, int pitch) {
    const int64_t n = int64_t(2 * r + 1) * (2 * r + 1);
    std::vector<int64_t> col(size_t(H) * W);
    std::vector<uint8_t> out(size_t(H) * W);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int64_t s = 0;
            for (int j = -r; j <= r; j++) s += in[size_t(clampi(y + j, H - 1)) * pitch + x];
            col[size_t(y) * W + x] = s;
        }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int64_t s = 0;
            for (int i = -r; i <= r; i++) s += col[size_t(y) * W + clampi(x + i, W - 1)];
            out[size_t(y) * W + x] = uint8_t((s + n / 2) / n);
        }
    return out;
}

int main(int argc, char **argv) {
    const int r = atoi(argv[1]), C = atoi(argv[2]), H = atoi(argv[3]), W = atoi(argv[4]);
    const int pitch = (W + 63) / 64 * 64, plane = pitch * H;
    std::mt19937 rng(H * 131 + W);
    std::vector<uint8_t> in(size_t(C) * plane), out(size_t(C) * plane + 64, 0xAB);
    for (auto &v : in) v = rng() & 255;
    std::vector<std::atomic<int>> writes(out.size());
    g_output_base = out.data();
    g_output_writes = writes.data();
    filterlab_tvm_call call{in.data(), out.data(), C, H, W, plane, pitch, plane, pitch, {}, {}, 0};
    LAUNCHER(&call);
    long bad = 0;
    for (int c = 0; c < C; c++) {
        const std::vector<uint8_t> want = expected(&in[size_t(c) * plane], r, H, W, pitch);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < pitch; x++) {
                const size_t at = size_t(c) * plane + size_t(y) * pitch + x;
                const int stored = writes[at];
                if (x >= W) {  // the row padding stays untouched
                    if ((out[at] != 0xAB || stored) && bad++ < 5) printf("  wrote padding y=%d x=%d\n", y, x);
                    continue;
                }
                const uint8_t w = want[size_t(y) * W + x], got = out[at];
                if (got != w && bad++ < 5) printf("  mismatch c=%d y=%d x=%d got %d want %d\n", c, y, x, got, w);
                if (stored != 1 && bad++ < 5) printf("  c=%d y=%d x=%d stored %d times\n", c, y, x, stored);
            }
    }
    for (int i = 0; i < 64; i++)
        if ((out[size_t(C) * plane + i] != 0xAB || writes[size_t(C) * plane + i]) && bad++ < 5)
            printf("  wrote past the image\n");
    printf("%s r=%d %dx%dx%d: %s (%ld bad), each output stored once\n", argv[0], r, C, H, W, bad ? "FAIL" : "ok", bad);
    return bad != 0;
}
