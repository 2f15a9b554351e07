#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <fmt/format.h>

namespace filterlab {

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
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const int left = done_ ? static_cast<int>(elapsed / done_ * (total_ - done_) + 0.5) : -1;
    const int filled = static_cast<int>(fraction * kWidth);
    const std::string bar = std::string(filled, '#') + std::string(kWidth - filled, '.');
    const std::string eta = left < 0 ? "" : fmt::format(", {}:{:02d} left", left / 60, left % 60);
    fmt::print(stderr, "\r\033[K{} [{}] {}/{} ({:.0f}%){}", what_, bar, done_, total_, 100 * fraction, eta);
    std::fflush(stderr);
}

}  // namespace filterlab
