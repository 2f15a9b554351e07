#include "temp_files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

#include "error.h"

namespace filterlab {
namespace {

// The live temporaries, in storage a signal handler may read: a slot's path
// is complete before its state says so, and only unlink(2) touches it there.
constexpr int kSlots = 16;
enum SlotState : int { kFree = 0, kFilling = 1, kLive = 2 };
struct Slot {
    std::atomic<int> state{kFree};
    char path[PATH_MAX];
};
Slot slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slot states");

const int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

// Blocks the cleanup signals in this thread while a slot and the file system
// disagree (a file made but not yet listed, or renamed but still listed).
class SignalsHeld {
public:
    SignalsHeld() {
        sigset_t set;
        sigemptyset(&set);
        for (int s : kCleanupSignals) sigaddset(&set, s);
        pthread_sigmask(SIG_BLOCK, &set, &old_);
    }
    ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

private:
    sigset_t old_;
};

int claim_slot(const std::string &path) {
    if (path.size() >= PATH_MAX) throw Error(path + ": cannot create output: path too long");
    for (int i = 0; i < kSlots; i++) {
        int expected = kFree;
        if (slots[i].state.compare_exchange_strong(expected, kFilling)) {
            std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
            return i;
        }
    }
    throw Error(path + ": cannot create output: too many files open for writing");
}

extern "C" void remove_temporaries(int signal_number) {
    const int saved_errno = errno;
    for (Slot &slot : slots) {
        if (slot.state.load() == kLive) ::unlink(slot.path);
    }
    errno = saved_errno;
    // The handler was installed with SA_RESETHAND: the signal, raised again,
    // ends the process as it would have without us.
    ::raise(signal_number);
}

mode_t new_file_mode() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

}  // namespace

TempFile::TempFile(const std::string &target) : target_(target) {
    const std::filesystem::path t(target);
    const std::filesystem::path dir = t.has_parent_path() ? t.parent_path() : ".";
    std::string pattern = (dir / ("." + t.filename().string() + ".XXXXXX")).string();
    const SignalsHeld held;
    slot_ = claim_slot(pattern);
    fd_ = ::mkstemp(slots[slot_].path);
    if (fd_ < 0) {
        const int error = errno;
        slots[slot_].state.store(kFree);
        throw Error(target + ": cannot create output: " + std::strerror(error));
    }
    path_ = slots[slot_].path;
    slots[slot_].state.store(kLive);
}

TempFile::~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (slot_ < 0) return;
    const SignalsHeld held;
    ::unlink(path_.c_str());
    slots[slot_].state.store(kFree);
}

int TempFile::release_fd() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
}

void TempFile::rename_onto_target() {
    ::chmod(path_.c_str(), new_file_mode());  // mkstemp made it 0600
    const SignalsHeld held;
    if (::rename(path_.c_str(), target_.c_str()) != 0) {
        throw Error(target_ + ": cannot replace output: " + std::strerror(errno));
    }
    slots[slot_].state.store(kFree);
    slot_ = -1;
}

void install_signal_cleanup() {
    struct sigaction action {};
    action.sa_handler = remove_temporaries;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (int s : kCleanupSignals) {
        struct sigaction previous {};
        sigaction(s, nullptr, &previous);
        if (previous.sa_handler == SIG_IGN) continue;  // e.g. started with nohup: stay ignored
        sigaction(s, &action, nullptr);
    }
    ::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace filterlab
