// The variant the public API runs when the caller names none: the fastest
// measured on the H100 that takes the call's parameters, as the reviewed
// table default_rankings.inc ranks them (scripts/fastest_variants.py).
#pragma once

#include <string>
#include <vector>

#include "registry.h"

namespace filterlab {

struct Ranking {
    const char *filter, *backend, *params;
    int width, height;  // where the ranking was measured
    std::vector<const char *> fastest_first;
};
const std::vector<Ranking> &rankings();

// Throws Error when no variant of `backend` takes these parameters.
const Variant &default_variant(const std::string &filter, Backend backend, const ParamValues &params);

}  // namespace filterlab
