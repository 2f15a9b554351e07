// The median paper's OpenMP baseline, exact under FILTERS.md: the plane is
// first copied into an image padded by k/2 on every side (edge samples
// repeated: the clamp border), then `parallel for` over the rows gathers each
// k x k window without bounds checks and bubble-sorts it. Gold: reference::median.
#include <vector>

#include "cpu_planes.h"
#include "registry.h"

namespace filterlab::handwritten::cpu {
namespace {

// The plane with a border of `r` samples, edges repeated.
std::vector<uint8_t> padded(const Plane &p, int r, int &pitch) {
    pitch = p.width + 2 * r;
    std::vector<uint8_t> out(static_cast<std::size_t>(pitch) * (p.height + 2 * r));
    for (int y = -r; y < p.height + r; y++)
        for (int x = -r; x < p.width + r; x++)
            out[(y + r) * pitch + x + r] = p.in[clamp_index(y, p.height - 1) * p.in_pitch + clamp_index(x, p.width - 1)];
    return out;
}

uint8_t bubble_median(uint8_t *window, int n) {
    for (int pass = 0; pass < n - 1; pass++)
        for (int i = 0; i < n - 1 - pass; i++)
            if (window[i] > window[i + 1]) {
                const uint8_t t = window[i];
                window[i] = window[i + 1];
                window[i + 1] = t;
            }
    return window[n / 2];
}

void run_bubble(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const int k = static_cast<int>(params.at("size")), r = k / 2;
    for (int c = 0; c < in.channels; c++) {
        const Plane p = plane(in, out, c);
        int pitch = 0;
        const std::vector<uint8_t> pad = padded(p, r, pitch);
#pragma omp parallel for schedule(static) num_threads(threads())
        for (int y = 0; y < p.height; y++) {
            uint8_t window[49];
            for (int x = 0; x < p.width; x++) {
                int n = 0;
                for (int j = 0; j < k; j++)
                    for (int i = 0; i < k; i++) window[n++] = pad[(y + j) * pitch + x + i];
                p.out[y * p.out_pitch + x] = bubble_median(window, n);
            }
        }
    }
}

const VariantRegistration bubble{
    {"median", "omp_bubble", Backend::cpu, Kind::handwritten, {}, run_bubble}};

}  // namespace
}  // namespace filterlab::handwritten::cpu
