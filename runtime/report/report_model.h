// The report's view of bench results: runs grouped by machine, and per
// machine, filter, parameter set and channel count, the cells measured and the
// best of each kind at each size. report.cpp renders it.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "run_dir.h"

namespace filterlab::report_model {

// The kinds the tables mark the best of, in table order.
// handwritten: CUDA kernels; handwritten_cpu: the OpenMP and Pthreads baselines.
enum class Category {
    reference,
    halide_cpu,
    halide_cuda,
    handwritten,
    handwritten_cpu,
    halide_opencl,
    handwritten_opencl,
    tvm_cuda,
    peer
};
inline constexpr Category kRanked[] = {Category::halide_cpu,      Category::halide_cuda,   Category::handwritten,
                                       Category::handwritten_cpu, Category::halide_opencl, Category::handwritten_opencl,
                                       Category::tvm_cuda,        Category::peer};

Category category_of(const std::string &kind, const std::string &backend);
Category category_of(const BenchRow &r);
const char *label(Category c);       // "Halide CUDA"
const char *plot_group(Category c);  // "halide_cuda": scripts/plots.py's colours
// A schedule named by hand: a named schedule, or a point of its space frozen
// by hand (the report counts both as "named"; sweep points and autoschedules
// are the other Halide origins).
inline bool named_by_hand(Origin o) { return o == Origin::schedule || o == Origin::frozen_point; }

// The runs of one machine (told apart by host name, CPU and GPU), their
// results merged: a case measured in two runs keeps the later run's result.
struct Machine {
    std::string key, name, slug;  // slug: m1, m2, ... in the order of the runs given
    std::vector<const RunDir *> runs;
    std::vector<BenchRow> rows;
};

std::vector<Machine> group_machines(const std::vector<RunDir> &runs);  // `runs` must outlive the result
double roofline_of(const Machine &m);  // the copy roofline of its runs; 0 without a GPU

using Size = std::pair<int, int>;

// One machine's results for one filter at one parameter set and channel count.
struct View {
    const Machine *machine = nullptr;
    std::string filter, params;
    int channels = 1;
    std::vector<std::string> variants;  // measured at least once, by category then first appearance
    std::map<std::string, Category> category;
    std::map<std::string, Origin> origin;  // of the variants in `category`
    std::vector<std::pair<std::string, std::string>> not_measured;  // name, why
    std::vector<Size> sizes;                                        // ascending
    std::map<std::string, std::map<Size, const BenchRow *>> cell;   // the most threads measured
    std::map<std::string, std::map<Size, std::map<int, const BenchRow *>>> by_threads;
    std::map<std::pair<Size, Category>, const BenchRow *> best;
    // The points of sweeps (origin sweep_point), kept out of the tables and
    // the bests above: report_sweeps.h draws them; the verdict names their best.
    std::map<std::string, std::map<Size, const BenchRow *>> points;
    std::string slug() const;   // for file names
    std::string title() const;  // "box radius=1, 1 channel"
};

std::vector<View> views_of(const Machine &m, const std::string &filter);  // `m` must outlive the result
const BenchRow *reference_at(const View &v, Size s);                      // null where not measured
bool is_best(const View &v, const BenchRow *r);                            // the best of its kind at its size

}  // namespace filterlab::report_model
