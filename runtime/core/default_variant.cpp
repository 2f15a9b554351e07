#include "default_variant.h"

#include "error.h"

namespace filterlab {

const std::vector<Ranking> &rankings() {
    static const std::vector<Ranking> all = {
#include "default_rankings.inc"
    };
    return all;
}

namespace {

bool takes(const Variant &v, const ParamValues &params) {
    // Availability is not asked: a CUDA default where there is no GPU fails when run, saying so.
    return v.kind != Kind::peer && v.unsupported_reason(params).empty();
}

const Variant *registered(const std::string &filter, const std::string &name) {
    return is_registered(filter, name) ? &find_variant(filter, name) : nullptr;
}

// The measured ranking for exactly these parameters, else the filter's first
// (its defaults, as the bench runs them).
const Ranking *ranking_for(const std::string &filter, const std::string &backend, const ParamValues &params) {
    const Ranking *first = nullptr;
    for (const Ranking &r : rankings()) {
        if (r.filter != filter || r.backend != backend) continue;
        if (r.params == format_params(params)) return &r;
        if (!first) first = &r;
    }
    return first;
}

}  // namespace

const Variant &default_variant(const std::string &filter, Backend backend, const ParamValues &params) {
    if (const Ranking *r = ranking_for(filter, to_string(backend), params)) {
        for (const char *name : r->fastest_first)
            if (const Variant *v = registered(filter, name); v && takes(*v, params)) return *v;
    }
    // Not measured: a schedule or kernel of the backend, else (on the host) the reference.
    const Variant *fallback = nullptr;
    for (const Variant &v : all_variants()) {
        if (v.filter != filter || v.backend != backend || !takes(v, params)) continue;
        if (v.kind != Kind::reference) return v;
        fallback = &v;
    }
    if (fallback) return *fallback;
    throw Error(filter + ": no " + to_string(backend) + " variant takes " + format_params(params));
}

}  // namespace filterlab
