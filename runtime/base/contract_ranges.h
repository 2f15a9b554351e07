// The parameter ranges of the filter contract (../shared/FILTERS.md), stated
// once. Every layer reads them here: the runtime's parameter domains
// (runtime/core/filters.cpp), the Halide generators and schedules (their
// include path has runtime/base), the handwritten kernels (through
// filterlab_core), the build (schedules/CMakeLists.txt reads kMedianSizes) and
// the TVM algorithms and schedules (generators/tvm/plane.py: contract_range,
// which reads this file's `constexpr` lines, so each stays one line of the
// form `constexpr int kName = N;` or `constexpr std::array kName{A, B};`).
// tests/lint/check_ranges.py fails where the box's bound is written again.
//
// FILTERS.md gives the lower bounds; where it gives none above (r >= 1,
// sigma > 0, ...), the upper bound is the suite's: what every implementation
// is built, checked and timed for, and what the runtime accepts.
#pragma once

#include <array>

namespace filterlab {

// box: radius r >= 1 (FILTERS.md, box).
constexpr int kBoxMinRadius = 1;
// box: the largest radius; every box kernel takes 1..15 (no bound in FILTERS.md).
constexpr int kBoxMaxRadius = 15;

// median: window size k in {3, 5, 7} (FILTERS.md, median), smallest first.
constexpr std::array kMedianSizes{3, 5, 7};

// gaussian (and gaussian_maxpool): sigma > 0 (FILTERS.md, gaussian); below
// 1e-3, 2 sigma^2 may underflow, so the suite's domain starts there.
constexpr double kGaussianMinSigma = 1e-3;
constexpr double kGaussianMaxSigma = 1000;

// nlmeans: patch radius p >= 0 (FILTERS.md, nlmeans); the suite's largest is 10.
constexpr int kNlmeansMinPatch = 0;
constexpr int kNlmeansMaxPatch = 10;
// nlmeans: search radius s >= 1 (FILTERS.md, nlmeans); the suite's largest is 30.
constexpr int kNlmeansMinSearch = 1;
constexpr int kNlmeansMaxSearch = 30;
// nlmeans: h > 0 (FILTERS.md, nlmeans); below 1e-3, h^2 may underflow (0/0).
constexpr double kNlmeansMinH = 1e-3;
constexpr double kNlmeansMaxH = 1000;

}  // namespace filterlab
