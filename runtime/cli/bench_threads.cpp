#include "bench_threads.h"

#include <HalideRuntime.h>

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>

#include "error.h"
#include "registry.h"

namespace filterlab::cli {

std::vector<std::string> bench_thread_counts(BenchOptions options, const std::vector<int> &threads) {
    for (auto &b : options.backends)
        if (b != "cpu") throw Error("--threads times CPU variants only: leave out --backend " + b);
    for (auto &f : options.filters) filter_info(f);
    options.backends = {"cpu"};
    auto chosen = [&](const std::vector<std::string> &list, const std::string &name) {
        return list.empty() || std::find(list.begin(), list.end(), name) != list.end();
    };
    const std::vector<std::string> filters = options.filters;
    std::vector<std::string> variants = options.variants;
    options.filters.clear();
    options.variants.clear();
    for (const Variant &v : all_variants()) {
        // Halide's schedules and the OpenMP and Pthreads baselines follow the thread count; peers keep their own pools.
        const bool follows = v.kind == Kind::halide || v.kind == Kind::handwritten;
        if (v.backend != Backend::cpu || !follows || !chosen(filters, v.filter)) continue;
        if (std::find(options.filters.begin(), options.filters.end(), v.filter) == options.filters.end())
            options.filters.push_back(v.filter);
        if (chosen(variants, v.name)) options.variants.push_back(v.name);
    }
    if (options.variants.empty()) throw Error("--threads: no Halide or handwritten CPU variant matches");
    options.variants.push_back("reference");
    std::vector<std::string> dirs;
    for (int t : threads) {
        fmt::print(stderr, "--- {} thread{} ---\n", t, t == 1 ? "" : "s");  // progress
        // The pool follows halide_set_num_threads; the results record
        // HL_NUM_THREADS (halide_thread_count).
        setenv("HL_NUM_THREADS", std::to_string(t).c_str(), 1);
        halide_set_num_threads(t);
        dirs.push_back(run_bench(options));
    }
    return dirs;
}

}  // namespace filterlab::cli
