// Which variant is a point of which schedule's sweep: the one rule, as the
// build names the points of both languages (filterlab_build/library_names.py,
// the build's variants.json): "<schedule>[a=1+b=2]", of the same
// filter and backend. Read by `filterlab sweep`.
#pragma once

#include "registry.h"

namespace filterlab {

inline bool is_sweep_point_of(const Variant &v, const Variant &base) {
    return v.origin == Origin::sweep_point && v.filter == base.filter && v.backend == base.backend &&
           v.name.rfind(base.name + "[", 0) == 0;
}

}  // namespace filterlab
