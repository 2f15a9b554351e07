// Non-local means by integral images, as the method was first put on a GPU
// (FILTERS.md; gold: reference::nlmeans). For each search offset:
//   1. a kernel writes the squared-difference image D (summed over channels)
//      over the image grown by p on every side (a patch at the border reads D
//      there, and D outside is not D at the edge);
//   2. a summed-area table of D in two passes, row prefix sums then column
//      prefix sums;
//   3. a kernel takes each patch sum from four table entries, turns it into a
//      weight (expf) and accumulates weight and weighted sample;
// and a last kernel normalises. The table is uint32 and wraps: a rectangle
// sum (at most 3 * 441 * 255^2 < 2^32) taken with wrapping arithmetic is
// exact whatever the totals do.
//
// hw_integral launches these per offset (4 kernels x (2s+1)^2); hw_integral_rows
// does a whole row of offsets per launch, the third grid dimension running
// over dx, so the host loop runs over dy only. Its accumulation kernel loops
// over dx inside each thread instead: threads of different dx would race on
// the same accumulator.
#include "nlmeans_common.cuh"

namespace filterlab::handwritten::nlmeans {
namespace {

// (2s+1) or 1 summed-area tables of the padded image, each (W+2p+1) x (H+2p+1)
// with a zero first row and column; table z belongs to dx = dx_first + z.
struct Tables {
    uint32_t *data;
    int pitch, rows;  // W + 2p + 1, H + 2p + 1
    int dx_first, count;
    __device__ uint32_t *table(int z) const { return data + std::size_t(z) * pitch * rows; }
};

__global__ void difference_kernel(Planes img, Tables t, int patch, int dy) {
    const int X = blockIdx.x * blockDim.x + threadIdx.x, Y = blockIdx.y * blockDim.y + threadIdx.y;
    if (X >= t.pitch - 1 || Y >= t.rows - 1) return;
    const int dx = t.dx_first + blockIdx.z, x = X - patch, y = Y - patch;
    uint32_t d = 0;
    for (int c = 0; c < img.channels; c++) {
        const int e = int(img.sample(x, y, c)) - int(img.sample(x + dx, y + dy, c));
        d += e * e;
    }
    t.table(blockIdx.z)[std::size_t(Y + 1) * t.pitch + X + 1] = d;
}

// One thread per row, walking along it: the classic first pass.
__global__ void row_prefix_kernel(Tables t) {
    const int Y = 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (Y >= t.rows) return;
    uint32_t *row = t.table(blockIdx.z) + std::size_t(Y) * t.pitch;
    for (int X = 1; X < t.pitch; X++) row[X] += row[X - 1];
}

// One thread per column, walking down it (neighbouring threads, neighbouring words).
__global__ void column_prefix_kernel(Tables t) {
    const int X = 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (X >= t.pitch) return;
    uint32_t *column = t.table(blockIdx.z) + X;
    for (int Y = 1; Y < t.rows; Y++) column[std::size_t(Y) * t.pitch] += column[std::size_t(Y - 1) * t.pitch];
}

// Accumulators: C numerator planes, then the denominator plane.
__global__ void weights_kernel(Planes img, Tables t, Params prm, int dy, float *accum) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= img.width || y >= img.height) return;
    const int side = 2 * prm.patch + 1;  // the patch of (x, y) is padded columns x..x+2p, rows y..y+2p
    const std::size_t top = std::size_t(y) * t.pitch, bottom = std::size_t(y + side) * t.pitch;
    const std::size_t plane = std::size_t(img.width) * img.height, i = std::size_t(y) * img.width + x;
    float weight_sum = 0, sums[kMaxChannels] = {};
    for (int z = 0; z < t.count; z++) {
        const uint32_t *s = t.table(z);
        const uint32_t patch_sum = s[bottom + x + side] - s[top + x + side] - s[bottom + x] + s[top + x];
        const float w = expf(-__uint2float_rn(patch_sum) * prm.inverse_scale);
        weight_sum += w;
        for (int c = 0; c < img.channels; c++) sums[c] += w * img.sample(x + t.dx_first + z, y + dy, c);
    }
    for (int c = 0; c < img.channels; c++) accum[c * plane + i] += sums[c];
    accum[img.channels * plane + i] += weight_sum;
}

void run(const PlanarView &in, const PlanarView &out, const ParamValues &values, bool whole_rows) {
    const Planes img = planes(in, out);
    const Params prm = params(values, in.channels);
    const int s = prm.search, per_launch = whole_rows ? 2 * s + 1 : 1;
    Tables t{nullptr, in.width + 2 * prm.patch + 1, in.height + 2 * prm.patch + 1, -s, per_launch};
    Scratch<uint32_t> tables(std::size_t(per_launch) * t.pitch * t.rows);  // zeroed: the zero row and column
    Scratch<float> accum(std::size_t(in.channels + 1) * in.width * in.height);
    t.data = tables.get();

    const dim3 block(32, 8), line(128);
    const dim3 padded = pixel_grid(t.pitch - 1, t.rows - 1, block), pixels = pixel_grid(in.width, in.height, block);
    const dim3 rows((t.rows - 1 + line.x - 1) / line.x, 1, per_launch);
    const dim3 columns((t.pitch - 1 + line.x - 1) / line.x, 1, per_launch);
    for (int dy = -s; dy <= s; dy++)
        for (int dx = -s; dx <= s; dx += per_launch) {
            t.dx_first = dx;
            difference_kernel<<<dim3(padded.x, padded.y, per_launch), block, 0, stream()>>>(img, t, prm.patch, dy);
            check_launch("nlmeans difference_kernel");
            row_prefix_kernel<<<rows, line, 0, stream()>>>(t);
            check_launch("nlmeans row_prefix_kernel");
            column_prefix_kernel<<<columns, line, 0, stream()>>>(t);
            check_launch("nlmeans column_prefix_kernel");
            weights_kernel<<<pixels, block, 0, stream()>>>(img, t, prm, dy, accum.get());
            check_launch("nlmeans weights_kernel");
        }
    normalise(img, accum.get());
    tables.release();
    accum.release();
}

void run_per_offset(const PlanarView &in, const PlanarView &out, const ParamValues &values) {
    run(in, out, values, false);
}
void run_offset_rows(const PlanarView &in, const PlanarView &out, const ParamValues &values) {
    run(in, out, values, true);
}

const VariantRegistration integral{
    {"nlmeans", "hw_integral", Backend::cuda, Kind::handwritten, {}, run_per_offset}};
const VariantRegistration integral_rows{
    {"nlmeans", "hw_integral_rows", Backend::cuda, Kind::handwritten, {}, run_offset_rows}};

}  // namespace
}  // namespace filterlab::handwritten::nlmeans
