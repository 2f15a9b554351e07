// Checks and times the CUDA objects of the NL-means scatter probe
// (nlmeans_scatter.py) on the GPU: each pipeline f(input, h, out) — gray,
// p = 3, s = 10 compiled in — against a plain C++ double-precision gold of
// FILTERS.md's NL-means on several sizes (output poisoned first; tolerance
// as FILTERS.md: every sample within 1, at least 99% equal), then its time
// at 1024^2, h = 10, with CUDA events (5 warm-up runs, 41 timed, median and
// interquartile range). Halide's device allocations are reused across calls
// (halide_reuse_device_allocations), so the root accumulator's cudaMalloc is
// not timed. Built here by
// reports/halide/probes/build_probe.sh nlmeans_scatter DIR nlmeans_time; run on the GPU
// machine: OUT_DIR/nlmeans_time  (or OUT_DIR/nlmeans_time NAME: time one).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "probe_cuda.h"
#include "probe_list.h"  // PROBES: {"name", function}, written by build_probe.sh

namespace {

constexpr int kPatch = 3, kSearch = 10;  // as compiled by nlmeans_scatter.py
constexpr float kH = 10.0f;

using Pipeline = int (*)(halide_buffer_t *, float, halide_buffer_t *);
struct Probe {
    const char *name;
    Pipeline run;
};
const Probe kProbes[] = {PROBES};

// FILTERS.md's NL-means, gray, clamp border, in double: per offset the
// squared differences, their (2p+1)^2 box sums (separable), the weights.
std::vector<uint8_t> gold(const std::vector<uint8_t> &in, int w, int h, int pitch, int p, int s, double hh) {
    const int m = s + p, W = w + 2 * m, H = h + 2 * m;  // padded by the clamp
    std::vector<double> J(size_t(W) * H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            J[size_t(y) * W + x] = in[size_t(std::clamp(y - m, 0, h - 1)) * pitch + std::clamp(x - m, 0, w - 1)];
    const int pw = w + 2 * p, ph = h + 2 * p;  // the diffs a patch of the image needs
    std::vector<double> num(size_t(w) * h, 0), den(size_t(w) * h, 0), d(size_t(pw) * ph), r(size_t(w) * ph);
    const double scale = 1.0 / ((2 * p + 1) * (2 * p + 1) * hh * hh);
    for (int dy = -s; dy <= s; dy++)
        for (int dx = -s; dx <= s; dx++) {
            for (int y = 0; y < ph; y++)
                for (int x = 0; x < pw; x++) {
                    const int ax = x + s, ay = y + s;  // (x - p, y - p) in image coordinates
                    const double e = J[size_t(ay) * W + ax] - J[size_t(ay + dy) * W + ax + dx];
                    d[size_t(y) * pw + x] = e * e;
                }
            for (int y = 0; y < ph; y++)
                for (int x = 0; x < w; x++) {
                    double t = 0;
                    for (int i = 0; i <= 2 * p; i++) t += d[size_t(y) * pw + x + i];
                    r[size_t(y) * w + x] = t;
                }
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    double t = 0;
                    for (int j = 0; j <= 2 * p; j++) t += r[size_t(y + j) * w + x];
                    const double wt = std::exp(-t * scale);
                    num[size_t(y) * w + x] += wt * J[size_t(y + m + dy) * W + x + m + dx];
                    den[size_t(y) * w + x] += wt;
                }
        }
    std::vector<uint8_t> out(size_t(pitch) * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            out[size_t(y) * pitch + x] =
                uint8_t(std::floor(std::clamp(num[size_t(y) * w + x] / den[size_t(y) * w + x], 0.0, 255.0) + 0.5));
    return out;
}

using probe::Image;

bool check(const Probe &p, int w, int h, std::mt19937 &rng) {
    Image in(w, h, false), out(w, h, false);
    std::vector<uint8_t> host(size_t(in.pitch) * h);
    for (auto &v : host) v = uint8_t(rng());
    CHECK_CUDA(cudaMemcpy(in.device, host.data(), host.size(), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(out.device, 0xAB, host.size()));
    if (int e = p.run(&in.buf, kH, &out.buf)) { std::printf("%s: Halide error %d\n", p.name, e); return false; }
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<uint8_t> got(host.size());
    CHECK_CUDA(cudaMemcpy(got.data(), out.device, got.size(), cudaMemcpyDeviceToHost));
    const std::vector<uint8_t> want = gold(host, w, h, in.pitch, kPatch, kSearch, kH);
    long equal = 0, far = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const int a = got[size_t(y) * in.pitch + x], b = want[size_t(y) * in.pitch + x];
            equal += a == b;
            if (std::abs(a - b) > 1 && far++ == 0)
                std::printf("%s: %dx%d differs at (%d, %d): %d, want %d\n", p.name, w, h, x, y, a, b);
        }
    const double frac = double(equal) / (double(w) * h);
    if (far || frac < 0.99) {
        std::printf("%s: %dx%d: %ld samples off by more than 1, %.3f%% equal\n", p.name, w, h, far, 100 * frac);
        return false;
    }
    return true;
}

void time_probe(const Probe &p, int size) {
    Image in(size, size, false), out(size, size, false);
    std::vector<uint8_t> host(size_t(in.pitch) * size);
    std::mt19937 rng(7);
    for (auto &v : host) v = uint8_t(rng());
    CHECK_CUDA(cudaMemcpy(in.device, host.data(), host.size(), cudaMemcpyHostToDevice));
    const std::vector<float> ms = probe::times_ms([&] { return p.run(&in.buf, kH, &out.buf); });
    std::printf("%-16s %5d^2 gray p=%d s=%d h=%g  median %8.3f ms  IQR %7.3f .. %7.3f ms\n", p.name, size, kPatch,
                kSearch, kH, ms[20], ms[10], ms[30]);
}

}  // namespace

// With an argument NAME: times that probe alone (for a profiler).
int main(int argc, char **argv) {
    probe::use_primary_context();
    halide_reuse_device_allocations(nullptr, true);
    if (argc == 2) {
        for (const Probe &p : kProbes)
            if (std::string(p.name) == argv[1]) time_probe(p, 1024);
        return 0;
    }
    std::mt19937 rng(2026);
    const int sizes[][2] = {{1, 1}, {3, 2}, {17, 5}, {61, 97}, {257, 131}, {1024, 1024}};
    int failed = 0;
    for (const Probe &p : kProbes) {
        int cases = 0;
        for (auto &s : sizes) failed += !check(p, s[0], s[1], rng), cases++;
        std::printf("%s: %d sizes checked\n", p.name, cases);
    }
    if (failed) { std::printf("nlmeans_time: %d cases outside tolerance\n", failed); return 1; }
    for (const Probe &p : kProbes) time_probe(p, 1024);
    halide_device_release(nullptr, halide_cuda_device_interface());
    return 0;
}
