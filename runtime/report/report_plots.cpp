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

// share/filterlab/plots.py beside the executable's bin/ folder (installed),
// or the build's copy beside runtime/ (both one folder up).
fs::path plots_script() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path().parent_path() / "share" / "filterlab" / "plots.py";
}

// The Python to run, or empty with `why` set.
std::string find_python(const std::string &source_dir, std::string &why) {
    if (const char *env = std::getenv("FILTERLAB_PYTHON")) {
        if (access(env, X_OK) == 0) return env;
        why = fmt::format("FILTERLAB_PYTHON={} is not an executable", env);
        return "";
    }
    const fs::path venv = fs::path(source_dir) / ".venv" / "bin" / "python";
    if (!source_dir.empty() && access(venv.c_str(), X_OK) == 0) return venv.string();
    if (const char *path = std::getenv("PATH")) {
        std::string dirs = path;
        for (std::size_t start = 0; start <= dirs.size();) {
            const std::size_t end = std::min(dirs.find(':', start), dirs.size());
            const fs::path candidate = fs::path(dirs.substr(start, end - start)) / "python3";
            if (end > start && access(candidate.c_str(), X_OK) == 0) return candidate.string();
            start = end + 1;
        }
    }
    why = "no Python found (set FILTERLAB_PYTHON to a Python with matplotlib)";
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

std::string PlotList::add(nlohmann::json spec, const std::string &alt) {
    const std::string file = spec.at("file").get<std::string>();
    specs_.push_back(std::move(spec));
    return drawn_ ? fmt::format("![{}]({})\n\n", alt, file) : "";
}

PlotOutcome make_plots(const PlotList &plots, const std::string &out_dir, const std::string &source_dir) {
    const fs::path out = out_dir, spec = out / "plots.json", log = out / "plots.log";
    auto remove_plots = [&] {
        for (const auto &p : plots.specs()) fs::remove(out / p["file"].get<std::string>());
    };
    remove_plots();  // never show an older report's plot
    if (plots.specs().empty()) return {true, ""};
    const fs::path script = plots_script();
    if (!fs::is_regular_file(script)) {
        return {false, fmt::format("no {} (the plots script is installed with filterlab as share/filterlab/plots.py)",
                                   script.string())};
    }
    std::string why;
    const std::string python = find_python(source_dir, why);
    if (python.empty()) return {false, why};
    std::ofstream(spec) << nlohmann::json{{"plots", plots.specs()}}.dump(1) << "\n";
    const std::string command = fmt::format("{} {} {} {} >{} 2>&1", quoted(python), quoted(script.string()),
                                            quoted(spec.string()), quoted(out.string()), quoted(log.string()));
    const int raw = std::system(command.c_str());
    const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    PlotOutcome outcome{true, ""};
    if (status == kNoMatplotlib) outcome = {false, fmt::format("matplotlib is not installed for {}", python)};
    else if (status != 0) {
        outcome = {false, fmt::format("{} {} failed (status {}): {}", python, script.string(), status, last_line(log))};
    }
    for (const auto &p : plots.specs()) {
        if (outcome.made && !fs::exists(out / p["file"].get<std::string>())) {
            outcome = {false, fmt::format("{} did not write {}", script.string(), p["file"].get<std::string>())};
        }
    }
    if (!outcome.made) {
        remove_plots();  // the spec and the log stay, to see why
        return outcome;
    }
    fs::remove(log);
    fs::remove(spec);  // the page's tables hold the numbers; the spec is the script's input only
    return outcome;
}

}  // namespace filterlab
