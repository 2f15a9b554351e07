// What every filter's generator takes from the build beside its algorithm's
// own settings: which registered schedule to apply at which point of its
// space (schedule_registry.h), and the image shape or class the library is
// compiled for (word_view.h: fix_shape). A generator derives from it:
//
//     class BoxGenerator : public filterlab::FilterGenerator<BoxGenerator> { ... };
#pragma once

#include <string>

#include "Halide.h"

namespace filterlab {

template <typename T>
class FilterGenerator : public Halide::Generator<T> {
public:
    // "<backend>_<name>"; empty for an autoscheduler.
    Halide::GeneratorParam<std::string> schedule{"schedule", ""};
    // A point of its space ("a:1+b:2"); empty: the default.
    Halide::GeneratorParam<std::string> point{"point", ""};
    // "WxH" or "aligned": the shape or class it takes (FILTERLAB_SHAPES); empty: any.
    Halide::GeneratorParam<std::string> shape{"shape", ""};
    // With shape: where to say if Halide took it.
    Halide::GeneratorParam<std::string> shape_report{"shape_report", ""};
};

}  // namespace filterlab
