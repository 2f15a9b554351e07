#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <fmt/format.h>

namespace filterlab {

std::string time_left(std::chrono::steady_clock::time_point start, std::size_t done, std::size_t total) {
    if (done == 0 || done >= total) return "";
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const int left = static_cast<int>(elapsed / done * (total - done) + 0.5);
    return fmt::format(", {}:{:02d} left", left / 60, left % 60);
}

Progress::Progress(std::string what, std::size_t total, bool quiet)
    : what_(std::move(what)), total_(total), enabled_(!quiet && total > 0 && ::isatty(2)),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() { interrupt(); }

void Progress::advance(std::size_t steps) {
    done_ += steps;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_draw_ < std::chrono::milliseconds(100) && done_ < total_) return;
    last_draw_ = now;
    draw();
}

void Progress::interrupt() {
    if (enabled_) std::fputs("\r\033[K", stderr);
}

void Progress::draw() {
    if (!enabled_) return;
    constexpr int kWidth = 24;
    const double fraction = total_ ? static_cast<double>(done_) / total_ : 1.0;
    const int filled = static_cast<int>(fraction * kWidth);
    const std::string bar = std::string(filled, '#') + std::string(kWidth - filled, '.');
    fmt::print(stderr, "\r\033[K{} [{}] {}/{} ({:.0f}%){}", what_, bar, done_, total_, 100 * fraction,
               time_left(start_, done_, total_));
    std::fflush(stderr);
}

}  // namespace filterlab
