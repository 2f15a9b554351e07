#pragma once

#include <stdexcept>
#include <string>

namespace filterlab {

// Every failure a user can cause (bad file, bad parameter, no GPU, ...) is an
// Error whose message is one clear line; the CLI prints it and exits non-zero.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The machine, not the variant, cannot go on: out of GPU or pinned memory, no
// CUDA context. check and bench do not record it against one variant and go
// on, but end the whole command with its one line.
struct MachineError : Error {
    using Error::Error;
};

}  // namespace filterlab
