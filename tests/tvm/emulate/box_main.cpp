// Runs one generated box library's launcher (LAUNCHER, -D) on the CPU
// emulation (shim.h) and compares every output with FILTERS.md's box, and the
// bytes around the image (row padding, past the last row) with their fill.
//   box_main RADIUS CHANNELS HEIGHT WIDTH       rows pitched as the harness does (64 bytes)
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
extern "C" int LAUNCHER(const filterlab_tvm_call *call);
static int clampi(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }
int main(int argc, char **argv) {
    const int r = atoi(argv[1]), C = atoi(argv[2]), H = atoi(argv[3]), W = atoi(argv[4]);
    const int pitch = (W + 63) / 64 * 64, plane = pitch * H;
    std::mt19937 rng(H * 131 + W);
    std::vector<uint8_t> in(size_t(C) * plane), out(size_t(C) * plane + 64, 0xAB);
    for (auto &v : in) v = rng() & 255;
    filterlab_tvm_call call{in.data(), out.data(), C, H, W, plane, pitch, plane, pitch, {}, {}, 0};
    LAUNCHER(&call);
    const int64_t n = int64_t(2 * r + 1) * (2 * r + 1);
    long bad = 0;
    for (int c = 0; c < C; c++) {
        // Column sums then row sums over the clamped image, straightforward and exact.
        std::vector<int64_t> col(size_t(H) * W);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int64_t s = 0;
                for (int j = -r; j <= r; j++) s += in[size_t(c) * plane + size_t(clampi(y + j, H - 1)) * pitch + x];
                col[size_t(y) * W + x] = s;
            }
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int64_t s = 0;
                for (int i = -r; i <= r; i++) s += col[size_t(y) * W + clampi(x + i, W - 1)];
                const uint8_t want = uint8_t((s + n / 2) / n), got = out[size_t(c) * plane + size_t(y) * pitch + x];
                if (got != want && bad++ < 5) printf("  mismatch c=%d y=%d x=%d got %d want %d\n", c, y, x, got, want);
            }
        for (int y = 0; y < H; y++)  // the row padding past the width stays untouched
            for (int x = W; x < pitch; x++)
                if (out[size_t(c) * plane + size_t(y) * pitch + x] != 0xAB && bad++ < 5)
                    printf("  wrote padding y=%d x=%d\n", y, x);
    }
    for (int i = 0; i < 64; i++)
        if (out[size_t(C) * plane + i] != 0xAB && bad++ < 5) printf("  wrote past the image\n");
    printf("%s r=%d %dx%dx%d: %s (%ld bad)\n", argv[0], r, C, H, W, bad ? "FAIL" : "ok", bad);
    return bad != 0;
}
