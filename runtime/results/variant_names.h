// What a Halide variant's name says about where its schedule came from. The
// build names them (cmake/FilterLab.cmake, cmake/ScheduleSpaces.cmake):
// "<backend>_<schedule>" for a schedule written by hand, "<backend>_auto_<scheduler>"
// for a frozen autoschedule, "<backend>_<schedule>[a=1+b=2]" for one point of
// a sweep.
#pragma once

#include <string>

namespace filterlab {

enum class Origin { named, autoscheduled, sweep_point };

inline Origin origin_of(const std::string &variant) {
    if (variant.find('[') != std::string::npos) return Origin::sweep_point;
    if (variant.find("_auto_") != std::string::npos) return Origin::autoscheduled;
    return Origin::named;
}

// "cuda_tile[tile_x=64+tile_y=8]" -> "cuda_tile"; other names unchanged.
inline std::string sweep_base(const std::string &variant) { return variant.substr(0, variant.find('[')); }

}  // namespace filterlab
