// The Gaussian project's Pthreads baseline: the rows of each plane split into
// one contiguous band per worker (pthread_create / pthread_join), each worker
// running the direct 5x5 loop over its band. Exact under FILTERS.md.
// Gold: reference::gaussian.
#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "error.h"
#include "gaussian_rows.h"
#include "registry.h"

namespace filterlab::handwritten::cpu {
namespace {

struct Band {
    Plane plane;
    GaussianWeights weights;
    int first_row, end_row;
};

void *filter_band(void *arg) {
    const Band &b = *static_cast<const Band *>(arg);
    for (int y = b.first_row; y < b.end_row; y++) gaussian_direct_row(b.plane, b.weights, y);
    return nullptr;
}

void run_bands(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const GaussianWeights w = reference::gaussian_weights(params.at("sigma"));
    for (int c = 0; c < in.channels; c++) {
        const Plane p = plane(in, out, c);
        const int workers = std::max(1, std::min(threads(), p.height));
        std::vector<Band> bands(workers);
        std::vector<pthread_t> ids(workers);
        int started = 0, failure = 0;
        for (; started < workers; started++) {
            // Rows split as evenly as possible: the first height % workers bands get one more.
            const int base = p.height / workers, extra = p.height % workers;
            const int first = started * base + std::min(started, extra);
            bands[started] = {p, w, first, first + base + (started < extra ? 1 : 0)};
            if ((failure = pthread_create(&ids[started], nullptr, filter_band, &bands[started])) != 0) break;
        }
        for (int i = 0; i < started; i++) pthread_join(ids[i], nullptr);
        if (failure) throw MachineError(std::string("pthread_create: ") + std::strerror(failure));
    }
}

const VariantRegistration bands{
    with_algorithm({"gaussian", "pthreads_rows", Backend::cpu, Kind::handwritten, {}, run_bands}, "direct")};

}  // namespace
}  // namespace filterlab::handwritten::cpu
