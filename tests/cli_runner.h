// Running the filterlab CLI from a test, as a user would: its exit status and
// both outputs, captured in a scratch folder of this test process.
#pragma once

#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "test_paths.h"

namespace cli_test {

struct Result {
    int status;
    std::string out, err;
};

inline std::filesystem::path dir() {
    static const std::filesystem::path d = [] {
        auto p = std::filesystem::temp_directory_path() / ("filterlab_cli_" + std::to_string(::getpid()));
        std::filesystem::create_directories(p);
        return p;
    }();
    return d;
}

inline std::string slurp(const std::filesystem::path &p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// `env` is put before the command: "NAME=VALUE ..." or empty.
inline Result run_cli_env(const std::string &env, const std::string &args) {
    const auto out = dir() / "stdout.txt", err = dir() / "stderr.txt";
    const std::string command = env + " " + filterlab_exe() + " " + args + " >" + out.string() + " 2>" + err.string();
    const int raw = std::system(command.c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}

inline Result run_cli(const std::string &args) { return run_cli_env("", args); }

// One line `filterlab: error: ...` holding `fragment`, `status` (1: a
// failure; 2: a command line that cannot be parsed), and no `output`.
inline void expect_failure(const std::string &args, const std::string &fragment,
                           const std::filesystem::path &output = {}, int status = 1) {
    INFO("filterlab ", args);
    const Result r = run_cli(args);
    INFO("stderr: ", r.err);
    CHECK(r.status == status);
    CHECK(r.err.rfind("filterlab: error: ", 0) == 0);
    CHECK(r.err.find(fragment) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    if (!output.empty()) CHECK(!std::filesystem::exists(output));
}

// A command line that cannot be parsed: the same, with status 2.
inline void expect_usage_error(const std::string &args, const std::string &fragment,
                               const std::filesystem::path &output = {}) {
    expect_failure(args, fragment, output, 2);
}

}  // namespace cli_test
