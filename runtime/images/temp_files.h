// Temporary files beside their targets, removed on every path but success:
// an exception, the destructor, and SIGINT, SIGTERM, SIGHUP or SIGQUIT (once
// install_signal_cleanup has run), whichever thread the signal lands on.
// SIGKILL cannot be caught, nor a crash.
#pragma once

#include <string>
#include <vector>

namespace filterlab {

class TempFile {
public:
    // Creates `.<target's name>.<12 random letters>` in the target's folder.
    // Throws Error.
    explicit TempFile(const std::string &target);
    ~TempFile();
    TempFile(const TempFile &) = delete;
    TempFile &operator=(const TempFile &) = delete;

    int fd() const { return fd_; }
    const std::string &path() const { return path_; }
    const std::string &target() const { return target_; }
    // Hands the descriptor over (to fdopen): the caller closes it.
    int release_fd();
    // Renames the temporary onto the target (atomic on one file system),
    // keeping an existing target's permissions or giving the mode a new file
    // would get. Throws Error; the temporary then stays to be removed by the
    // destructor.
    void rename_onto_target();

private:
    std::string target_, path_;
    int fd_ = -1;
    int slot_ = -1;  // in the table the signal handler reads
};

// Renames each file onto its target; a cleanup signal arriving meanwhile
// takes effect after the last rename, so a set is never half replaced by an
// interruption. (A rename that fails — a target made unwritable meanwhile —
// throws Error naming it; the renames before it stand.)
void rename_all_onto_targets(const std::vector<TempFile *> &files);

// Throws Error unless a file can be made at `path`: its folder exists (or
// the system's reason it cannot be told: a path too long, no permission) and
// `path` is not a folder. For checking before any work is done.
void check_output_folder(const std::string &path);

// Writes `contents` to `path` through a temporary: the old file stays whole
// until the new one is. Throws Error.
void write_file_atomically(const std::string &path, const std::string &contents);

// Removes the live temporaries on SIGINT, SIGTERM, SIGHUP and SIGQUIT, then
// lets the signal end the process as it would have; ignores SIGPIPE (a reader
// gone makes a write fail with EPIPE and an error line); ignores SIGXFSZ, so that a write
// beyond a file-size limit fails with EFBIG and an error line instead of
// killing the process. Call once, early in main.
void install_signal_cleanup();

}  // namespace filterlab
