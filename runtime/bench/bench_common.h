// What `filterlab bench` and its batch mode share: the checks of the common
// options, the choice of variants and their parameters, the statistics of
// repeated samples and the run directory.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <cstdio>
#include <utility>

#include <nlohmann/json.hpp>

#include "bench.h"
#include "cuda_support.h"
#include "progress.h"
#include "results_schema.h"
#include "error.h"
#include "filters.h"
#include "registry.h"

namespace filterlab {

// Window samples the reference may visit for one benchmark case (~1 minute):
// beyond, the reference cannot be the oracle and the case is not timed.
constexpr double kBenchReferenceBudget = 2e11;

struct Stats {
    int samples = 0;  // 0: not measured
    double median = 0, min = 0, max = 0, p25 = 0, p75 = 0;  // in the unit of the samples
    double mean = 0, stddev = 0;                            // stddev: the sample standard deviation (n - 1)
};

// Quantiles interpolated between order statistics (Hyndman and Fan's type 7).
Stats summarise(std::vector<double> samples);

// Repeats `sample` (which returns the time of one sample) after a warm-up
// (unless the caller has warmed up already, as its probe_run does), until
// enough samples and enough time, or (at least 3 samples) too long.
template <typename Sample>
Stats repeat(const BenchOptions &o, Sample &&sample, bool warmed_up = false) {
    using Clock = std::chrono::steady_clock;
    const auto begin = Clock::now();
    if (!warmed_up) sample();
    std::vector<double> times;
    for (;;) {
        times.push_back(sample());
        const double elapsed = std::chrono::duration<double>(Clock::now() - begin).count();
        if (static_cast<int>(times.size()) >= o.min_reps && elapsed >= o.min_seconds) break;
        if (times.size() >= 3 && elapsed >= o.max_seconds_per_case) break;
    }
    return summarise(times);
}

// Under --budget, a case whose three samples would take over half of what is
// left of the run (`one_run_seconds` a sample at least) is skipped: throws
// std::invalid_argument. A slow case then never spends the budget of the cases
// after it, and the run ends within its budget.
void check_budget(const BenchOptions &o, double one_run_seconds);

// The seconds of one untimed run (`run` returns once it has finished), the
// warm-up of a case and the gauge of its samples; check_budget on it.
template <typename Run>
double probe_run(const BenchOptions &o, Run &&run) {
    using Clock = std::chrono::steady_clock;
    const auto begin = Clock::now();
    run();
    const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
    check_budget(o, seconds);
    return seconds;
}

// Runs in one sample of a path that queues several (GPU, OpenCL): as many as
// fit in a quarter of the case's time (a warm-up and three samples make the
// shortest case), at least 1 and at most `cap`.
int runs_per_sample(const BenchOptions &o, double one_run_seconds, int cap);

// The time a case may take: its share of what is left of --budget over the
// `cases_left`, never more than the per-case cap (without a budget, the cap).
double case_seconds(const BenchOptions &o, double elapsed_seconds, std::size_t cases_left);

// Progress and notices of a bench run: standard error (standard output holds
// the results), nothing with --quiet.
template <typename... Args>
void bench_say(const BenchOptions &o, fmt::format_string<Args...> format, Args &&...args) {
    if (!o.quiet) fmt::print(stderr, format, std::forward<Args>(args)...);
}

// Runs one case's work on `image` and records how it ended in `status` and
// `note`: a variant that cannot take the case (not usable here, parameters or
// an image it does not support, or work throwing std::invalid_argument) is
// skipped; a failure (Error) is error. Otherwise status and note are as the
// work left them.
template <typename Work>
void run_case(const Variant &v, const ParamValues &params, const Image &image, Status &status, std::string &note,
              Work &&work) {
    try {
        if (std::string why = v.why_unavailable(); !why.empty()) throw std::invalid_argument(why);
        if (std::string why = v.unsupported_reason(params, image.width(), image.height(), image.channels()); !why.empty())
            throw std::invalid_argument(why);
        work();
    } catch (const std::invalid_argument &e) {
        status = Status::skipped;
        note = e.what();
    } catch (const MachineError &) {
        throw;  // the machine is short, not the variant: the command ends
    } catch (const Error &e) {
        status = Status::error;
        note = e.what();
    }
}

// The run's close, written once for bench and its batch mode, into the
// context of its results: the host, the command, the GPU clocks at the start
// (`start`, read before the first case) and now, at the end.
void close_run_context(nlohmann::json &context, const BenchOptions &o, const cuda::Clocks &start);

// A new run directory under `root` (see make_run_dir) that is removed again
// unless the run completes, with `root` too when this run made it: a run that
// ends in an error leaves nothing.
class NewRunDir {
public:
    explicit NewRunDir(const std::string &root, const std::string &prefix = "");
    ~NewRunDir();
    NewRunDir(const NewRunDir &) = delete;
    NewRunDir &operator=(const NewRunDir &) = delete;
    const std::string &path() const { return path_; }
    const std::string &keep() {
        kept_ = true;
        return path_;
    }

private:
    std::string root_, path_;
    bool made_root_ = false, kept_ = false;
};

// Throws Error for an unknown filter, a channel count, backend or parameter
// assignment that cannot be.
void check_common_options(const BenchOptions &o);

// True when `list` is empty (no restriction) or holds `value`.
bool selected(const std::vector<std::string> &list, const std::string &value);

// The variants the options select (see BenchOptions); throws Error when none.
std::vector<const Variant *> chosen_variants(const BenchOptions &o);

// The filter's parameters from the NAME=VALUE assignments naming one of them.
ParamValues params_for(const FilterInfo &f, const std::vector<std::string> &assignments);

// A new directory under `root`, named `prefix` and the UTC time (never an
// existing one).
std::string make_run_dir(const std::string &root, const std::string &prefix = "");

}  // namespace filterlab
