#pragma once

#include <stdexcept>
#include <string>

namespace filterlab {

// Every failure a user can cause (bad file, bad parameter, no GPU, ...) is an
// Error whose message is one clear line; the CLI prints it and exits non-zero.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace filterlab
