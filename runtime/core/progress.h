// Progress of a long command (check, bench) on standard error: on a terminal,
// one line redrawn in place with a bar and the time left; anywhere else (a
// log, a pipe, CI) nothing, the command's own lines saying enough.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace filterlab {

// ", 3:05 left" after `done` of `total` steps begun at `start`, at the pace so
// far; empty before the first step is done and after the last.
std::string time_left(std::chrono::steady_clock::time_point start, std::size_t done, std::size_t total);

class Progress {
public:
    // Draws nothing when `quiet` or when standard error is not a terminal.
    Progress(std::string what, std::size_t total, bool quiet = false);
    ~Progress();  // erases the line
    Progress(const Progress &) = delete;
    Progress &operator=(const Progress &) = delete;

    void advance(std::size_t steps = 1);  // redraws at most ten times a second
    // Erases the line so that a whole line can be printed, then draws again.
    void interrupt();

private:
    void draw();
    std::string what_;
    std::size_t total_, done_ = 0;
    bool enabled_;
    std::chrono::steady_clock::time_point start_, last_draw_{};
};

}  // namespace filterlab
