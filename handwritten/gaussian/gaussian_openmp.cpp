// The Gaussian project's OpenMP baselines, in the three classic forms of
// TECHNIQUES.md, each a `parallel for` over the rows. Exact under FILTERS.md.
// Gold: reference::gaussian.
#include "gaussian_rows.h"
#include "registry.h"

namespace filterlab::handwritten::cpu {
namespace {

// Runs row(plane, y) for every row of every plane, the rows spread over the threads.
template <typename Row>
void parallel_rows(const PlanarView &in, const PlanarView &out, Row &&row) {
    for (int c = 0; c < in.channels; c++) {
        const Plane p = plane(in, out, c);
#pragma omp parallel for schedule(static) num_threads(threads())
        for (int y = 0; y < p.height; y++) row(p, y);
    }
}

// 1. The direct double loop with the weights of sigma.
void run_direct(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const GaussianWeights w = reference::gaussian_weights(params.at("sigma"));
    parallel_rows(in, out, [&](const Plane &p, int y) { gaussian_direct_row(p, w, y); });
}

// 2. Unrolled with sigma = 1's weights [14, 63, 102, 63, 14] as constants.
void run_unrolled(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    parallel_rows(in, out, [](const Plane &p, int y) {
        constexpr uint32_t w[5] = {14, 63, 102, 63, 14};
        const uint8_t *rows[5];
        for (int i = 0; i < 5; i++) rows[i] = p.in + clamp_index(y + i - 2, p.height - 1) * p.in_pitch;
        for (int x = 0; x < p.width; x++) {
            int xs[5];
            for (int j = 0; j < 5; j++) xs[j] = clamp_index(x + j - 2, p.width - 1);
            uint32_t sum = 0;
#pragma GCC unroll 5
            for (int i = 0; i < 5; i++)
#pragma GCC unroll 5
                for (int j = 0; j < 5; j++) sum += w[i] * w[j] * rows[i][xs[j]];
            p.out[y * p.out_pitch + x] = round_shift(sum);
        }
    });
}

// 3. A lookup table of product x sample for the six distinct products w_i w_j
// (|i|, |j| in 0..2), which replaces every multiplication.
void run_lut(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const GaussianWeights w = reference::gaussian_weights(params.at("sigma"));
    uint32_t t[3][3][256];  // 9 KiB, read by every thread
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int v = 0; v < 256; v++) t[a][b][v] = static_cast<uint32_t>(w[2 + a] * w[2 + b] * v);
    parallel_rows(in, out, [&t](const Plane &p, int y) {
        for (int x = 0; x < p.width; x++) {
            uint32_t sum = 0;
            for (int i = -2; i <= 2; i++) {
                const uint8_t *row = p.in + clamp_index(y + i, p.height - 1) * p.in_pitch;
                for (int j = -2; j <= 2; j++) sum += t[i < 0 ? -i : i][j < 0 ? -j : j][row[clamp_index(x + j, p.width - 1)]];
            }
            p.out[y * p.out_pitch + x] = round_shift(sum);
        }
    });
}

const VariantRegistration direct{
    with_algorithm({"gaussian", "omp_direct", Backend::cpu, Kind::handwritten, {}, run_direct}, "direct")};
const VariantRegistration unrolled{
    with_algorithm({"gaussian", "omp_unrolled", Backend::cpu, Kind::handwritten, parse_supports("sigma=1"), run_unrolled}, "direct")};
const VariantRegistration lut{
    with_algorithm({"gaussian", "omp_lut", Backend::cpu, Kind::handwritten, {}, run_lut}, "direct")};

}  // namespace
}  // namespace filterlab::handwritten::cpu
