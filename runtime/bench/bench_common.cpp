#include "bench_common.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>

#include "error.h"

#include <unistd.h>

namespace filterlab {

bool selected(const std::vector<std::string> &list, const std::string &value) {
    return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
}

Stats summarise(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    auto at = [&](double q) {
        const double h = q * (samples.size() - 1);
        const std::size_t lo = static_cast<std::size_t>(h);
        return lo + 1 < samples.size() ? samples[lo] + (h - lo) * (samples[lo + 1] - samples[lo]) : samples[lo];
    };
    double sum = 0, squares = 0;
    for (double x : samples) sum += x;
    const double mean = sum / samples.size();
    for (double x : samples) squares += (x - mean) * (x - mean);
    const double stddev = samples.size() > 1 ? std::sqrt(squares / (samples.size() - 1)) : 0.0;
    return {static_cast<int>(samples.size()), at(0.5), samples.front(), samples.back(), at(0.25), at(0.75), mean, stddev};
}

void check_budget(const BenchOptions &o, double one_run_seconds) {
    if (o.budget_seconds > 0 && 3 * one_run_seconds > o.budget_seconds / 2) {
        throw std::invalid_argument(fmt::format("over the bench's --budget: one run takes {:.2f} s, {:.0f} s were left",
                                                one_run_seconds, o.budget_seconds));
    }
}

int runs_per_sample(const BenchOptions &o, double one_run_seconds, int cap) {
    const double fit = std::floor(o.max_seconds_per_case / 4 / std::max(one_run_seconds, 1e-9));
    return static_cast<int>(std::clamp(fit, 1.0, double(std::max(cap, 1))));
}

double case_seconds(const BenchOptions &o, double elapsed_seconds, std::size_t cases_left) {
    if (o.budget_seconds <= 0 || cases_left == 0) return o.max_seconds_per_case;
    const double share = std::max(0.0, o.budget_seconds - elapsed_seconds) / double(cases_left);
    return std::min(share, o.max_seconds_per_case);
}

void check_common_options(const BenchOptions &o) {
    for (auto &f : o.filters) filter_info(f);
    for (int c : o.channels)
        if (c != 1 && c != 3) throw Error(fmt::format("bench: {} channels (1 or 3)", c));
    for (auto &b : o.backends)
        if (b != "cpu" && b != "cuda" && b != "opencl") throw Error("bench: backend must be cpu, cuda or opencl, got " + b);
    for (auto &p : o.params)
        if (p.find('=') == std::string::npos) throw Error("parameter '" + p + "' is not of the form NAME=VALUE");
}

std::vector<const Variant *> chosen_variants(const BenchOptions &o) {
    std::vector<const Variant *> chosen;
    for (const Variant &v : all_variants()) {
        if (!o.filters.empty() && !selected(o.filters, v.filter)) continue;
        if (o.filters.empty() && std::none_of(all_variants().begin(), all_variants().end(), [&](auto &w) {
                return w.filter == v.filter && w.kind != Kind::reference;
            }))
            continue;
        if (selected(o.variants, v.name) && selected(o.backends, to_string(v.backend))) chosen.push_back(&v);
    }
    if (chosen.empty()) throw Error("bench: no variant matches");
    return chosen;
}

ParamValues params_for(const FilterInfo &f, const std::vector<std::string> &assignments) {
    std::vector<std::string> mine;
    for (auto &a : assignments) {
        const std::string name = a.substr(0, a.find('='));
        if (std::any_of(f.params.begin(), f.params.end(), [&](auto &p) { return p.name == name; })) mine.push_back(a);
    }
    return f.parse_params(mine);
}

std::string make_run_dir(const std::string &root, const std::string &prefix) {
    std::filesystem::create_directories(root);
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::gmtime(&now));
    for (int i = 0;; i++) {
        const std::string dir = root + "/" + prefix + stamp + (i ? fmt::format("-{}", i) : "");
        if (std::filesystem::create_directory(dir)) return dir;  // false: exists, never overwritten
    }
}

void close_run_context(nlohmann::json &context, const BenchOptions &o, const cuda::Clocks &start) {
    const cuda::Clocks end = cuda::gpu_info().available ? cuda::current_clocks() : cuda::Clocks{};
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    context["host_name"] = host;
    context["command"] = o.command_line;
    context["gpu_clocks_start"] = {{"sm_mhz", start.sm_mhz}, {"memory_mhz", start.memory_mhz}};
    context["gpu_clocks_end"] = {{"sm_mhz", end.sm_mhz}, {"memory_mhz", end.memory_mhz}};
}

NewRunDir::NewRunDir(const std::string &root, const std::string &prefix) : root_(root) {
    std::error_code ec;
    made_root_ = !std::filesystem::exists(root, ec);
    path_ = make_run_dir(root, prefix);
}

NewRunDir::~NewRunDir() {
    if (kept_) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);  // made by this run, so ours to remove
    if (made_root_) std::filesystem::remove(root_, ec);  // only if empty
}

}  // namespace filterlab
