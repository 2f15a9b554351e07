// `filterlab check`: every selected variant against the reference over a
// matrix of sizes, contents, channel counts and parameter values.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "filters.h"
#include "image.h"
#include "registry.h"

namespace filterlab {

struct CheckCase {
    std::string content;  // random, salt_pepper, zeros, ones (255), gradient, or an image file's name
    Image input;
    ParamValues params;
    // An image of a shape the build compiled DSL variants for (FILTERLAB_SHAPES):
    // checked on the variants with a path for it only, on both their paths.
    bool build_shape = false;
    // Its reference is over the matrix's budget (NL-means at 1024²): the exact
    // path is checked against the variant's generic path, which the rest of the matrix checks.
    bool against_generic = false;
    std::string label() const;  // "31x37x3 random radius=2"
};

struct CheckOptions {
    std::string filter;    // empty: all
    std::string variant;   // empty: all (or those of `variants`)
    std::vector<std::string> variants;  // with an empty `variant`: only these, if any
    std::string images_dir;  // real images; empty: none
    bool quick = false;     // a smaller matrix (small sizes, fewer parameter values)
    // For compute-sanitizer: odd and degenerate sizes with 1 and 3 channels
    // at the default parameters, every other parameter value of the full
    // matrix on a tiny and an odd image; random contents, one run per case.
    bool sanitizer = false;
    bool quiet = false;  // no progress bar (one is drawn only on a terminal anyway)
};

struct VariantResult {
    const Variant *variant = nullptr;
    int passed = 0, failed = 0, skipped = 0;
    int differs = 0;  // a peer's output that is not the contract's function (reported, not a failure)
    int max_difference = 0;
    double seconds = 0;
    std::string skip_reason;
    std::vector<std::string> failures;  // the first few, in words
    // "ok", "FAIL", "SKIPPED" (nothing ran) or "DIFFERS ..." (a peer).
    std::string verdict() const;
};

// The cases for one filter (inputs built lazily would save little: they are small).
std::vector<CheckCase> check_cases(const FilterInfo &filter, const CheckOptions &options);

// Runs the check, printing progress and failures to `log`. Each variant runs
// twice per case, on outputs poisoned with two different values, so that an
// unwritten sample cannot match by chance.
std::vector<VariantResult> run_check(const CheckOptions &options, std::ostream &log);

// The counts over all variants (variant x case), for the summary line and
// the machine-readable reports.
struct CheckTotals {
    int passed = 0, failed = 0, skipped = 0, differs = 0;
};
CheckTotals totals(const std::vector<VariantResult> &results);

// The summary table.
void print_check_table(const std::vector<VariantResult> &results, std::ostream &out);

}  // namespace filterlab
