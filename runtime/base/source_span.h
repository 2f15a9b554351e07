// Where something is defined in the source tree: a file (relative to the
// tree's root) and its inclusive line range.
#pragma once

#include <string>

namespace filterlab {

struct SourceSpan {
    std::string file;  // empty: not known
    int first_line = 0, last_line = 0;
};

}  // namespace filterlab
