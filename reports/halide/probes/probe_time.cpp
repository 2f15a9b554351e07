// Checks and times the CUDA objects of a Halide probe (box_words_io.py) on the
// GPU: each pipeline f(words, width, radius, out_words) against a plain C++
// gold of FILTERS.md's box on several sizes (the output poisoned first), then
// its time at 8192^2 for r = 1, 7, 15 with CUDA events (5 warm-up runs, 41
// timed, median and interquartile range). Built here by
// reports/halide/probes/build_probe.sh; run on the GPU machine.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "probe_cuda.h"
#include "probe_list.h"  // PROBES: {"name", function}, written by build_probe.sh

namespace {

using Pipeline = int (*)(halide_buffer_t *, int32_t, int32_t, halide_buffer_t *);
struct Probe {
    const char *name;
    Pipeline run;
};
const Probe kProbes[] = {PROBES};

// FILTERS.md's box, clamp border, by a summed-area table.
std::vector<uint8_t> gold(const std::vector<uint8_t> &in, int w, int h, int pitch, int r) {
    std::vector<int64_t> sat(size_t(w + 1) * (h + 1), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            sat[size_t(y + 1) * (w + 1) + x + 1] = in[size_t(y) * pitch + x] + sat[size_t(y) * (w + 1) + x + 1] +
                                                   sat[size_t(y + 1) * (w + 1) + x] - sat[size_t(y) * (w + 1) + x];
    auto at = [&](int x, int y) {  // sum over clamped columns 0..x-1, rows 0..y-1 (x, y in 0..w / 0..h)
        return sat[size_t(y) * (w + 1) + x];
    };
    auto clamped_sum = [&](int x0, int x1, int y0, int y1) {  // inclusive window, clamped samples
        int64_t s = 0;
        // Split into the in-image part plus the replicated edges.
        for (int yy = y0; yy <= y1; yy++) {
            const int cy = std::clamp(yy, 0, h - 1);
            const int a = std::clamp(x0, 0, w - 1), b = std::clamp(x1, 0, w - 1);
            s += at(b + 1, cy + 1) - at(a, cy + 1) - at(b + 1, cy) + at(a, cy);
            s += int64_t(std::max(0, -x0)) * in[size_t(cy) * pitch];
            s += int64_t(std::max(0, x1 - (w - 1))) * in[size_t(cy) * pitch + w - 1];
        }
        return s;
    };
    const int64_t n = int64_t(2 * r + 1) * (2 * r + 1);
    std::vector<uint8_t> out(size_t(pitch) * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            out[size_t(y) * pitch + x] = uint8_t((clamped_sum(x - r, x + r, y - r, y + r) + n / 2) / n);
    return out;
}

using probe::Image;

bool check(const Probe &p, int w, int h, int r, std::mt19937 &rng) {
    Image in(w, h, true), out(w, h, true);
    std::vector<uint8_t> host(size_t(in.pitch) * h);
    for (auto &v : host) v = uint8_t(rng());
    CHECK_CUDA(cudaMemcpy(in.device, host.data(), host.size(), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(out.device, 0xAB, host.size()));
    if (int e = p.run(&in.buf, w, r, &out.buf)) { std::printf("%s: Halide error %d\n", p.name, e); return false; }
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<uint8_t> got(host.size());
    CHECK_CUDA(cudaMemcpy(got.data(), out.device, got.size(), cudaMemcpyDeviceToHost));
    const std::vector<uint8_t> want = gold(host, w, h, in.pitch, r);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (got[size_t(y) * in.pitch + x] != want[size_t(y) * in.pitch + x]) {
                std::printf("%s: %dx%d r=%d differs at (%d, %d): %d, want %d\n", p.name, w, h, r, x, y,
                            got[size_t(y) * in.pitch + x], want[size_t(y) * in.pitch + x]);
                return false;
            }
    return true;
}

void time_probe(const Probe &p, int size, int r) {
    Image in(size, size, true), out(size, size, true);
    CHECK_CUDA(cudaMemset(in.device, 0x5A, size_t(in.pitch) * size));
    const std::vector<float> ms = probe::times_ms([&] { return p.run(&in.buf, size, r, &out.buf); });
    std::printf("%-14s %5d^2 r=%-2d median %8.1f us  IQR %6.1f .. %6.1f us\n", p.name, size, r, ms[20] * 1e3,
                ms[10] * 1e3, ms[30] * 1e3);
}

}  // namespace

// With arguments NAME R: times that probe alone at radius R (for a profiler).
int main(int argc, char **argv) {
    probe::use_primary_context();
    if (argc == 3) {
        for (const Probe &p : kProbes)
            if (std::string(p.name) == argv[1]) time_probe(p, 8192, std::atoi(argv[2]));
        return 0;
    }
    std::mt19937 rng(2026);
    const int sizes[][2] = {{1, 1}, {3, 2}, {17, 5}, {61, 97}, {257, 131}, {1000, 37}, {1031, 1021}};
    int failed = 0;
    for (const Probe &p : kProbes) {
        int cases = 0;
        for (auto &s : sizes)
            for (int r : {1, 2, 7, 15}) failed += !check(p, s[0], s[1], r, rng), cases++;
        std::printf("%s: %d cases checked\n", p.name, cases);
    }
    if (failed) { std::printf("probe: %d cases differ\n", failed); return 1; }
    for (const Probe &p : kProbes)
        for (int r : {1, 7, 15}) time_probe(p, 8192, r);
    halide_device_release(nullptr, halide_cuda_device_interface());
    return 0;
}
