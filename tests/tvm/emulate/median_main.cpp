// Runs one generated median library's launcher (LAUNCHER, -D) on the CPU
// emulation (shim.h) and compares every output with FILTERS.md's median:
// the ((k^2+1)/2)-th smallest of the clamped k x k window, by sorting it
// (checked_run.h: each output stored exactly once, nothing around it).
//   median_main SIZE CHANNELS HEIGHT WIDTH      rows pitched as the harness does (64 bytes)
#include <algorithm>
#include <cstdlib>
#include "checked_run.h"

int main(int argc, char **argv) {
    const int k = atoi(argv[1]), C = atoi(argv[2]), H = atoi(argv[3]), W = atoi(argv[4]), r = k / 2;
    const int32_t none[4] = {};
    const long bad = checked_run(C, H, W, H, W, none, [&](const uint8_t *in, int y, int x) {
        std::vector<uint8_t> window;
        for (int j = -r; j <= r; j++)
            for (int i = -r; i <= r; i++) window.push_back(in[size_t(clampi(y + j, H - 1)) * pitched(W) + clampi(x + i, W - 1)]);
        std::nth_element(window.begin(), window.begin() + window.size() / 2, window.end());
        return window[window.size() / 2];
    });
    printf("%s size=%d %dx%dx%d: %s (%ld bad), each output stored once\n", argv[0], k, C, H, W, bad ? "FAIL" : "ok", bad);
    return bad != 0;
}
