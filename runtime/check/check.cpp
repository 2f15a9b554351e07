#include "check.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <optional>
#include <ostream>

#include "error.h"
#include "harness.h"
#include "progress.h"
#include "shape_path.h"

namespace filterlab {
namespace {

// What makes one matrix another for reference_output's cache: the filter, the
// mode, the images and every case (the selected variant's build shapes and
// parameter sets enter the matrix, so two variants' matrices may differ).
std::string matrix_key(const FilterInfo &filter, const CheckOptions &options, const std::vector<CheckCase> &cases) {
    std::string key = filter.name + (options.sanitizer ? " sanitizer " : options.quick ? " quick " : " full ") +
                      options.images_dir;
    for (const CheckCase &k : cases) key += "\n" + k.label();
    return key;
}

// The reference output of case i of the matrix (`key`: matrix_key), kept for
// the next call on the same matrix: the variant tests check one variant per
// call, and the nlmeans reference would otherwise take most of a minute per variant.
const Image &reference_output(const FilterInfo &filter, const std::string &key, const std::vector<CheckCase> &cases,
                              std::size_t i) {
    static const Image none;
    if (cases[i].against_generic) return none;  // each variant's own generic path (case_failure)
    static std::string matrix;
    static std::vector<std::optional<Image>> outputs;
    if (matrix != key || outputs.size() != cases.size()) {
        matrix = key;
        outputs.assign(cases.size(), std::nullopt);
    }
    if (!outputs[i]) outputs[i] = filter.reference(cases[i].input, cases[i].params);
    return *outputs[i];
}

// The variants of `filter` the options select, each with its reason to be skipped (if any).
std::vector<VariantResult> selected_variants(const FilterInfo &filter, const CheckOptions &options) {
    std::vector<VariantResult> mine;
    for (const Variant &v : all_variants()) {
        if (v.filter != filter.name || v.kind == Kind::reference) continue;
        if (!options.variant.empty() && v.name != options.variant) continue;
        if (options.variant.empty() && !options.variants.empty() &&
            std::find(options.variants.begin(), options.variants.end(), v.name) == options.variants.end())
            continue;
        VariantResult r;
        r.variant = &v;
        r.skip_reason = v.why_unavailable();
        mine.push_back(r);
    }
    return mine;
}

// Runs r's variant on case k under each poison: the first mismatch or error,
// empty if none; `differs` set where the variant is a peer documented to
// compute another function.
std::string case_failure(const FilterInfo &filter, const CheckOptions &options, const CheckCase &k,
                         const Image &expected, VariantResult &r, bool &differs) {
    std::string failure;
    try {
        // One poison under compute-sanitizer: it looks for bad accesses, not unwritten samples.
        const std::vector<uint8_t> poisons =
            options.sanitizer ? std::vector<uint8_t>{0xA5} : std::vector<uint8_t>{0xA5, 0x5A};
        std::optional<Image> generic;  // the oracle of a case whose reference is over budget
        if (k.against_generic) {
            const PathCeilingScope scope(ShapePath::generic);
            generic = run_variant(*r.variant, k.input, k.params, 0xA5);
        }
        for (uint8_t poison : poisons) {
            const Image actual = run_variant(*r.variant, k.input, k.params, poison);
            const Comparison cmp = compare_to_reference(filter, generic ? *generic : expected, actual);
            r.max_difference = std::max(r.max_difference, cmp.max_difference);
            if (!cmp.equal) {
                failure = fmt::format("poison 0x{:02X}: {}", poison, cmp.describe());
                differs = !r.variant->computes_contract;
                break;
            }
        }
        // A shape or class the variant was compiled for: its more general paths at the same image too.
        for (ShapePath path : more_general_paths(*r.variant, {k.input.width(), k.input.height()})) {
            if (!failure.empty() || generic) break;
            const PathCeilingScope ceiling(path);
            const Comparison cmp = compare_to_reference(filter, expected, run_variant(*r.variant, k.input, k.params, 0xA5));
            if (!cmp.equal) failure = fmt::format("its {} path at this image: {}", to_string(path), cmp.describe());
        }
    } catch (const MachineError &) {
        throw;  // the machine is short, not the variant: the command ends
    } catch (const Error &e) {
        failure = e.what();
    }
    return failure;
}

// Counts one case's outcome in r; logs a peer's first difference and the first five failures.
void record_outcome(const FilterInfo &filter, const CheckCase &k, const std::string &failure, bool differs,
                    VariantResult &r, Progress &progress, std::ostream &log) {
    if (failure.empty()) {
        r.passed++;
    } else if (differs) {
        // A peer documented to compute another function: reported, not failed.
        if (r.differs++ == 0) {
            progress.interrupt();
            fmt::print(log, "DIFFERS (peer) {}/{} {}: {}\n", filter.name, r.variant->name, k.label(), failure);
        }
    } else {
        r.failed++;
        if (r.failures.size() < 5) {
            r.failures.push_back(k.label() + ": " + failure);
            progress.interrupt();
            fmt::print(log, "FAIL {}/{} {}: {}\n", filter.name, r.variant->name, k.label(), failure);
        }
    }
}

// Checks r's variant on case k (or counts it skipped), timing it.
void check_case(const FilterInfo &filter, const CheckOptions &options, const CheckCase &k, const Image &expected,
                VariantResult &r, Progress &progress, std::ostream &log) {
    if (k.build_shape && shape_path(*r.variant, {k.input.width(), k.input.height()}) != "exact") return;  // not its case
    if (!r.skip_reason.empty() ||
        !r.variant->unsupported_reason(k.params, k.input.width(), k.input.height(), k.input.channels()).empty()) {
        r.skipped++;
        return;
    }
    const auto start = std::chrono::steady_clock::now();
    bool differs = false;
    const std::string failure = case_failure(filter, options, k, expected, r, differs);
    r.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    record_outcome(filter, k, failure, differs, r, progress, log);
}

// Checks the selected variants of one filter on every case of its matrix,
// saying how far it is every 50 cases.
void check_filter(const FilterInfo &filter, const CheckOptions &options, std::vector<VariantResult> &mine,
                  std::ostream &log) {
    const std::vector<CheckCase> cases = check_cases(filter, options);
    const std::string key = matrix_key(filter, options, cases);
    fmt::print(log, "{}: {} cases, {} variants\n", filter.name, cases.size(), mine.size());
    Progress progress("check " + filter.name, cases.size(), options.quiet);
    for (std::size_t i = 0; i < cases.size(); i++) {
        progress.advance();
        const CheckCase &k = cases[i];
        // A build shape no selected variant that can run here was compiled for needs no reference.
        const bool wanted = !k.build_shape || std::any_of(mine.begin(), mine.end(), [&](const VariantResult &r) {
            return r.skip_reason.empty() && shape_path(*r.variant, {k.input.width(), k.input.height()}) == "exact";
        });
        if (wanted) {
            const Image &expected = reference_output(filter, key, cases, i);
            for (VariantResult &r : mine) check_case(filter, options, k, expected, r, progress, log);
        }
        if ((i + 1) % 50 == 0 || i + 1 == cases.size()) {
            progress.interrupt();
            fmt::print(log, "  {}: {}/{} cases done\n", filter.name, i + 1, cases.size());
            log.flush();
        }
    }
}

}  // namespace

std::vector<VariantResult> run_check(const CheckOptions &options, std::ostream &log) {
    std::vector<VariantResult> results;
    for (const FilterInfo &filter : all_filters()) {
        if (!options.filter.empty() && filter.name != options.filter) continue;
        std::vector<VariantResult> mine = selected_variants(filter, options);
        if (mine.empty()) continue;
        check_filter(filter, options, mine, log);
        results.insert(results.end(), mine.begin(), mine.end());
    }
    return results;
}

CheckTotals totals(const std::vector<VariantResult> &results) {
    CheckTotals t;
    for (const VariantResult &r : results) t.passed += r.passed, t.failed += r.failed, t.skipped += r.skipped, t.differs += r.differs;
    return t;
}

std::string VariantResult::verdict() const {
    if (failed) return "FAIL";
    if (differs) return fmt::format("DIFFERS from the contract in {} cases (peer)", differs);
    return passed == 0 ? "SKIPPED" : "ok";
}

void print_check_table(const std::vector<VariantResult> &results, std::ostream &out) {
    fmt::print(out, "{:<9} {:<22} {:<5} {:<12} {:>6} {:>7} {:>7} {:>8} {:>9} {:>8}  {}\n", "filter", "variant",
               "back", "kind", "cases", "passed", "failed", "skipped", "max|diff|", "seconds", "result");
    for (auto &r : results) {
        const Variant &v = *r.variant;
        const std::string verdict = r.verdict();
        fmt::print(out, "{:<9} {:<22} {:<5} {:<12} {:>6} {:>7} {:>7} {:>8} {:>9} {:>8.2f}  {}{}\n", v.filter, v.name,
                   to_string(v.backend), to_string(v.kind), r.passed + r.failed + r.skipped + r.differs, r.passed, r.failed,
                   r.skipped, r.max_difference, r.seconds, verdict,
                   r.skip_reason.empty() ? "" : " (" + r.skip_reason + ")");
    }
}

}  // namespace filterlab
