// 2x2 max pooling, stride 2, with OpenMP: `parallel for` over the output
// rows, four loads and three maxima per output. Gold: reference::maxpool.
#include <algorithm>

#include "cpu_planes.h"
#include "registry.h"

namespace filterlab::handwritten::cpu {
namespace {

void run_naive(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    for (int c = 0; c < in.channels; c++) {
        const Plane p = plane(in, out, c);
#pragma omp parallel for schedule(static) num_threads(threads())
        for (int y = 0; y < out.height; y++) {
            const uint8_t *top = p.in + 2 * y * p.in_pitch, *bottom = top + p.in_pitch;
            for (int x = 0; x < out.width; x++)
                p.out[y * p.out_pitch + x] =
                    std::max(std::max(top[2 * x], top[2 * x + 1]), std::max(bottom[2 * x], bottom[2 * x + 1]));
        }
    }
}

const VariantRegistration naive{{"maxpool", "omp_naive", Backend::cpu, Kind::handwritten, {}, run_naive}};

}  // namespace
}  // namespace filterlab::handwritten::cpu
