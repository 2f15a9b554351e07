#include "temp_files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "error.h"

namespace filterlab {
namespace {

// The live temporaries, in storage a signal handler may read. A slot is made
// live *before* its file is created (the name is random, so a name that
// exists already is someone else's: then the slot is freed without touching
// it) and freed only after its file is renamed or removed: at no moment does
// a file of ours exist that the handler cannot see, whichever thread the
// signal lands on.
constexpr int kSlots = 16;
enum SlotState : int { kFree = 0, kFilling = 1, kLive = 2 };
struct Slot {
    std::atomic<int> state{kFree};
    char path[PATH_MAX];
};
Slot slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slot states");

const int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
// While a commit renames its files, a signal waits for the last rename, so
// that a set of outputs is never half replaced.
std::atomic<int> committing{0};
std::atomic<int> deferred_signal{0};

int claim_slot() {
    for (int i = 0; i < kSlots; i++) {
        int expected = kFree;
        if (slots[i].state.compare_exchange_strong(expected, kFilling)) return i;
    }
    throw Error("cannot create output: too many files open for writing");
}

void remove_live_temporaries() {
    for (Slot &slot : slots) {
        if (slot.state.load() == kLive) ::unlink(slot.path);
    }
}

void end_by_signal(int signal_number) {
    remove_live_temporaries();
    ::signal(signal_number, SIG_DFL);
    ::raise(signal_number);  // ends the process as the signal would have without us
}

extern "C" void on_cleanup_signal(int signal_number) {
    const int saved_errno = errno;
    if (committing.load()) {
        deferred_signal.store(signal_number);
    } else {
        end_by_signal(signal_number);
    }
    errno = saved_errno;
}

// The folder a file at `path` lands in.
std::filesystem::path folder_of(const std::filesystem::path &path) {
    return path.has_parent_path() ? path.parent_path() : ".";
}

// ".name." and 12 random letters or digits.
std::string random_suffix() {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char bytes[12];
    if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
        throw Error(std::string("cannot create output: no random bytes: ") + std::strerror(errno));
    }
    std::string suffix;
    for (unsigned char b : bytes) suffix += alphabet[b % (sizeof alphabet - 1)];
    return suffix;
}

// The mode a new file gets: 0666 less the umask, read without changing it.
mode_t new_file_mode() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("Umask:", 0) == 0) return 0666 & ~static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
    }
    return 0644;
}

}  // namespace

TempFile::TempFile(const std::string &target) : target_(target) {
    const std::filesystem::path t(target);
    const std::filesystem::path dir = folder_of(t);
    for (int attempt = 0; attempt < 8; attempt++) {
        const std::string name = (dir / ("." + t.filename().string() + "." + random_suffix())).string();
        if (name.size() >= PATH_MAX) throw Error(target + ": cannot create output: " + std::strerror(ENAMETOOLONG));
        const int slot = claim_slot();
        std::memcpy(slots[slot].path, name.c_str(), name.size() + 1);
        slots[slot].state.store(kLive);
        fd_ = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd_ >= 0) {
            slot_ = slot;
            path_ = name;
            return;
        }
        const int error = errno;
        slots[slot].state.store(kFree);
        if (error != EEXIST) throw Error(target + ": cannot create output: " + std::strerror(error));
    }
    throw Error(target + ": cannot create output: no free temporary name");
}

TempFile::~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (slot_ < 0) return;
    ::unlink(path_.c_str());
    slots[slot_].state.store(kFree);
}

int TempFile::release_fd() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
}

void TempFile::rename_onto_target() {
    // An existing target keeps its permissions; a new one gets the usual mode.
    struct stat existing {};
    ::chmod(path_.c_str(), ::stat(target_.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : new_file_mode());
    if (::rename(path_.c_str(), target_.c_str()) != 0) {
        throw Error(target_ + ": cannot replace output: " + std::strerror(errno));
    }
    slots[slot_].state.store(kFree);
    slot_ = -1;
}

void rename_all_onto_targets(const std::vector<TempFile *> &files) {
    // However the renames end, a signal that came meanwhile takes effect then.
    struct Committing {
        Committing() { committing.store(1); }
        ~Committing() {
            committing.store(0);
            if (const int sig = deferred_signal.exchange(0)) end_by_signal(sig);
        }
    } guard;
    for (TempFile *file : files) file->rename_onto_target();
}

void check_output_folder(const std::string &path) {
    const std::filesystem::path target(path);
    std::error_code ec;
    const bool is_dir = std::filesystem::is_directory(folder_of(target), ec);
    if (ec && ec != std::errc::no_such_file_or_directory) throw Error(path + ": cannot create output: " + ec.message());
    if (!is_dir) throw Error(path + ": cannot create output: no such folder");
    if (std::filesystem::is_directory(target, ec)) throw Error(path + ": is a directory");
}

void write_file_atomically(const std::string &path, const std::string &contents) {
    TempFile temp(path);
    std::size_t written = 0;
    while (written < contents.size()) {
        const ssize_t n = ::write(temp.fd(), contents.data() + written, contents.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw Error(path + ": write failed: " + std::strerror(errno));
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(temp.fd()) != 0) throw Error(path + ": write failed: " + std::strerror(errno));
    rename_all_onto_targets({&temp});
}

void install_signal_cleanup() {
    struct sigaction action {};
    action.sa_handler = on_cleanup_signal;
    sigemptyset(&action.sa_mask);
    for (int s : kCleanupSignals) {
        struct sigaction previous {};
        sigaction(s, nullptr, &previous);
        if (previous.sa_handler == SIG_IGN) continue;  // e.g. started with nohup: stay ignored
        sigaction(s, &action, nullptr);
    }
    ::signal(SIGXFSZ, SIG_IGN);
    ::signal(SIGPIPE, SIG_IGN);
}

}  // namespace filterlab
