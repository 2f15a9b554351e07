// Runs one generated box library's launcher (LAUNCHER, -D) on the CPU
// emulation (shim.h) and compares every output with FILTERS.md's box
// (checked_run.h: each output stored exactly once, nothing around it).
//   box_main RADIUS CHANNELS HEIGHT WIDTH       rows pitched as the harness does (64 bytes)
#include <cstdlib>
#include "checked_run.h"

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
    const int32_t none[4] = {};
    const uint8_t *plane = nullptr;  // the plane `want` was made for: made once a plane
    std::vector<uint8_t> want;
    const long bad = checked_run(C, H, W, H, W, none, [&](const uint8_t *in, int y, int x) {
        if (in != plane) want = expected(plane = in, r, H, W, pitched(W));
        return want[size_t(y) * W + x];
    });
    printf("%s r=%d %dx%dx%d: %s (%ld bad), each output stored once\n", argv[0], r, C, H, W, bad ? "FAIL" : "ok", bad);
    return bad != 0;
}
