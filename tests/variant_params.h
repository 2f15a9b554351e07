// The parameters a test's good call passes to a variant of the API: the
// contract's defaults where the variant takes them, else the first value it
// supports (VariantInfo::supports: "NAME in {a,b}" or "NAME in lo..hi", joined
// by ';'), e.g. size 7 for a median schedule frozen at 7x7.
#pragma once

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "filterlab/filterlab.h"
#include "filters.h"

namespace filterlab {

inline std::map<std::string, double> good_params(const VariantInfo &variant) {
    const ParamValues defaults = filter_info(variant.filter).defaults();
    std::map<std::string, double> params(defaults.begin(), defaults.end());
    std::stringstream items(variant.supports);
    for (std::string item; std::getline(items, item, ';');) {
        const auto in = item.find(" in ");
        if (in == std::string::npos) continue;
        const std::string range = item.substr(in + 4);
        double &value = params[item.substr(0, in)];
        if (range.front() == '{') {
            std::vector<double> allowed;
            std::stringstream list(range.substr(1, range.size() - 2));
            for (std::string v; std::getline(list, v, ',');) allowed.push_back(std::stod(v));
            if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) value = allowed.front();
        } else {
            const auto dots = range.find("..");
            value = std::clamp(value, std::stod(range.substr(0, dots)), std::stod(range.substr(dots + 2)));
        }
    }
    return params;
}

}  // namespace filterlab
