// Temporary files beside their targets, removed on every path but success:
// an exception, the destructor, and SIGINT, SIGTERM or SIGHUP (once
// install_signal_cleanup has run). SIGKILL cannot be caught; nothing else
// leaves a `.name.XXXXXX` behind.
#pragma once

#include <string>

namespace filterlab {

class TempFile {
public:
    // Creates `.<target's name>.XXXXXX` in the target's folder. Throws Error.
    explicit TempFile(const std::string &target);
    ~TempFile();
    TempFile(const TempFile &) = delete;
    TempFile &operator=(const TempFile &) = delete;

    int fd() const { return fd_; }
    const std::string &path() const { return path_; }
    const std::string &target() const { return target_; }
    // Hands the descriptor over (to fdopen): the caller closes it.
    int release_fd();
    // Renames the temporary onto the target (atomic on one file system), with
    // the mode a new file would get. Throws Error; the temporary then stays
    // to be removed by the destructor.
    void rename_onto_target();

private:
    std::string target_, path_;
    int fd_ = -1;
    int slot_ = -1;  // in the table the signal handler reads
};

// Removes the live temporaries on SIGINT, SIGTERM and SIGHUP, then lets the
// signal end the process as it would have; ignores SIGXFSZ, so that a write
// beyond a file-size limit fails with EFBIG and an error line instead of
// killing the process. Call once, early in main.
void install_signal_cleanup();

}  // namespace filterlab
