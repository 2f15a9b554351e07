#include "report_plots.h"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace filterlab {
namespace {

namespace fs = std::filesystem;

// Exit status of scripts/plots.py when matplotlib cannot be imported.
constexpr int kNoMatplotlib = 3;

std::string quoted(const std::string &s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// The Python to run, or empty with `why` set.
std::string find_python(const std::string &source_dir, std::string &why) {
    if (const char *env = std::getenv("FILTERLAB_PYTHON")) {
        if (access(env, X_OK) == 0) return env;
        why = fmt::format("FILTERLAB_PYTHON={} is not an executable", env);
        return "";
    }
    const fs::path venv = fs::path(source_dir) / ".venv" / "bin" / "python";
    if (access(venv.c_str(), X_OK) == 0) return venv.string();
    if (const char *path = std::getenv("PATH")) {
        std::string dirs = path;
        for (std::size_t start = 0; start <= dirs.size();) {
            const std::size_t end = std::min(dirs.find(':', start), dirs.size());
            const fs::path candidate = fs::path(dirs.substr(start, end - start)) / "python3";
            if (end > start && access(candidate.c_str(), X_OK) == 0) return candidate.string();
            start = end + 1;
        }
    }
    why = "no Python found (set FILTERLAB_PYTHON, or run scripts/setup.sh for " + venv.string() + ")";
    return "";
}

std::string last_line(const fs::path &log) {
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty()) last = line;
    return last;
}

}  // namespace

PlotOutcome make_plots(const nlohmann::json &plots, const std::string &out_dir, const std::string &source_dir) {
    const fs::path out = out_dir, spec = out / "plots.json", log = out / "plots.log";
    std::ofstream(spec) << nlohmann::json{{"plots", plots}}.dump(1) << "\n";
    for (const auto &p : plots) fs::remove(out / p["file"].get<std::string>());  // never show an older report's plot
    const fs::path script = fs::path(source_dir) / "scripts" / "plots.py";
    if (!fs::is_regular_file(script)) return {false, "no " + script.string() + " (give the source tree with --source)"};
    std::string why;
    const std::string python = find_python(source_dir, why);
    if (python.empty()) return {false, why};
    const std::string command = fmt::format("{} {} {} {} >{} 2>&1", quoted(python), quoted(script.string()),
                                            quoted(spec.string()), quoted(out.string()), quoted(log.string()));
    const int raw = std::system(command.c_str());
    const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    if (status == kNoMatplotlib) return {false, fmt::format("matplotlib is not installed for {}", python)};
    if (status != 0) {
        return {false, fmt::format("{} {} failed (status {}): {}", python, script.string(), status, last_line(log))};
    }
    for (const auto &p : plots) {
        if (!fs::exists(out / p["file"].get<std::string>())) {
            return {false, fmt::format("{} did not write {}", script.string(), p["file"].get<std::string>())};
        }
    }
    fs::remove(log);
    return {true, ""};
}

}  // namespace filterlab
