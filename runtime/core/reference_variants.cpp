// The reference of each filter, registered as a variant of kind `reference`
// so that the CLI can run it and the benchmark can time it like any other.
#include "filters.h"
#include "harness.h"
#include "registry.h"

namespace filterlab {
namespace {

const bool registered = [] {
    for (const FilterInfo &filter : all_filters()) {
        register_variant({filter.name, "reference", Backend::cpu, Kind::reference, {},
                          [&filter](const PlanarView &in, const PlanarView &out, const ParamValues &params) {
                              copy_to_view(filter.reference(image_from_view(in), params), out);
                          }});
    }
    return true;
}();

}  // namespace
}  // namespace filterlab
