#include "run_dir.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "error.h"
#include "run_format.h"
#include "schedule_point.h"

namespace filterlab {

namespace {

namespace fs = std::filesystem;

nlohmann::json read_json(const fs::path &path, const std::string &dir) {
    std::ifstream in(path);
    try {
        return nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception &) {
        throw Error(fmt::format("{}: partial bench run: {} is not complete JSON (was the run cut short?)", dir,
                                fs::relative(path, dir).string()));
    }
}

}  // namespace

namespace {

// Every field the report reads from sweep.json, of its type.
bool is_sweep(const nlohmann::json &s) {
    using json = nlohmann::json;
    auto has = [](const json &o, const char *key, json::value_t type) {
        return o.is_object() && o.contains(key) &&
               (o.at(key).type() == type || (type == json::value_t::number_integer && o.at(key).is_number_integer()));
    };
    if (!has(s, "format_version", json::value_t::number_integer) || s.at("format_version") != 1) return false;
    if (!has(s, "filter", json::value_t::string) || !has(s, "schedule", json::value_t::string) ||
        !has(s, "source", json::value_t::object) || !has(s, "axes", json::value_t::array) ||
        !has(s, "points", json::value_t::array))
        return false;
    if (!has(s.at("source"), "file", json::value_t::string) ||
        !has(s.at("source"), "first_line", json::value_t::number_integer))
        return false;
    for (const json &a : s.at("axes"))
        if (!has(a, "name", json::value_t::string) || !has(a, "values", json::value_t::array) ||
            !has(a, "default", json::value_t::number_integer))
            return false;
    for (const json &p : s.at("points"))
        if (!has(p, "variant", json::value_t::string) || !has(p, "values", json::value_t::object) ||
            !has(p, "check", json::value_t::string))
            return false;
    return true;
}

}  // namespace

namespace {

// The run format of a results.json's context; throws Error for one this
// filterlab does not read.
int run_format(const nlohmann::json &context, const std::string &path) {
    if (!context.contains("format")) {
        throw Error(fmt::format("{}: written by an older filterlab (results.json has no run format; this report "
                                "reads formats {} to {}): run `filterlab bench` again",
                                path, kOldestReadRunFormat, kRunFormat));
    }
    const nlohmann::json &format = context["format"];
    if (!format.is_number_integer() || format.get<int>() < kOldestReadRunFormat || format.get<int>() > kRunFormat) {
        throw Error(fmt::format("{}: run format {}, this filterlab reads formats {} to {}", path, format.dump(),
                                kOldestReadRunFormat, kRunFormat));
    }
    return format.get<int>();
}

// A point as a run wrote it, in the one spelling (runtime/base/schedule_point.h,
// "a=1+b=2"), read by the one reader; format 3 joined its axes with spaces
// ("a=1 b=2"), read as the same point.
std::string point_spelling(std::string text, int format) {
    if (format == 3) std::replace(text.begin(), text.end(), ' ', '+');
    try {
        return schedules::Point(text).text();
    } catch (const std::invalid_argument &e) {
        throw Error(e.what());
    }
}

// The compatibility path, the one place that knows how format 2 named things:
// its results.csv has no origin, algorithm or point, so they are derived here.
// The algorithm: the run's record (results.json's context "algorithms", kept
// since the bench recorded them), else this build's registry (`known`), else
// unknown (empty). The origin and point: from the names the build gave then,
// "<backend>_<schedule>[a=1+b=2]" a point of a sweep (the point in brackets,
// spelled as today), "<backend>_auto_<scheduler>" an autoschedule, the kind
// for the rest; a frozen point reads as a named schedule (its name does not
// say it is one).
void derive_format2_identity(BenchRow &row, const nlohmann::json &context, const KnownAlgorithms &known) {
    const nlohmann::json &recorded = context.value("algorithms", nlohmann::json::object());
    const std::string key = row.filter + "/" + row.variant;
    if (recorded.is_object() && recorded.contains(key) && recorded[key].is_string()) {
        row.algorithm = recorded[key];
    } else if (auto it = known.find({row.filter, row.variant}); it != known.end()) {
        row.algorithm = it->second;
    }
    const std::size_t bracket = row.variant.find('[');
    if (row.kind == "handwritten") row.origin = Origin::handwritten;
    else if (row.kind == "peer") row.origin = Origin::peer;
    else if (row.kind == "reference") row.origin = Origin::reference;
    else if (bracket != std::string::npos && row.variant.back() == ']') {
        row.origin = Origin::sweep_point;
        row.point = point_spelling(row.variant.substr(bracket + 1, row.variant.size() - bracket - 2), 2);
    } else if (row.variant.find("_auto_") != std::string::npos) row.origin = Origin::autoscheduler;
    else row.origin = Origin::schedule;
}

std::vector<BenchRow> read_rows(const fs::path &dir, const std::string &path, int format, const nlohmann::json &context,
                                const KnownAlgorithms &known) {
    const std::string header = results_csv_header(format);
    std::ifstream in(dir / kRunResultsCsv);
    std::string line;
    if (!std::getline(in, line) || line != header) {
        throw Error(fmt::format("{}/results.csv: unexpected columns for run format {} (expected {})", path, format,
                                header));
    }
    std::vector<BenchRow> rows;
    for (int number = 2; std::getline(in, line); number++) {
        if (line.empty()) continue;
        try {
            rows.push_back(parse_csv_line(line, format));
            if (format == 2) derive_format2_identity(rows.back(), context, known);
            else rows.back().point = point_spelling(rows.back().point, format);
        } catch (const Error &e) {
            throw Error(fmt::format("{}/results.csv line {}: {}", path, number, e.what()));
        }
    }
    if (rows.empty()) throw Error(path + ": partial bench run: results.csv has no results");
    return rows;
}

nlohmann::json read_gallery(const fs::path &dir, const std::string &path) {
    if (!fs::is_regular_file(dir / kRunGalleryJson)) {
        throw Error(fmt::format("{}: partial bench run: {} missing (was the run cut short?)", path, kRunGalleryJson));
    }
    nlohmann::json gallery = read_json(dir / kRunGalleryJson, path);
    if (!gallery.is_object() || !gallery.contains("filters") || !gallery["filters"].is_array()) {
        throw Error(fmt::format("{}: {} lists no filters", path, kRunGalleryJson));
    }
    for (const auto &f : gallery["filters"]) {
        // The pictures may be absent (a run kept under reports/ without them:
        // the report says so); the histograms are data the report rests on.
        for (const char *key : {"histograms"}) {
            if (f.contains(key) && !fs::is_regular_file(dir / kRunGalleryDir / f[key].get<std::string>())) {
                throw Error(fmt::format("{}: partial bench run: {}/{} missing", path, kRunGalleryDir,
                                        f[key].get<std::string>()));
            }
        }
    }
    return gallery;
}

}  // namespace

RunDir load_run_dir(const std::string &path, const KnownAlgorithms &known) {
    const fs::path dir = path;
    if (!fs::exists(dir)) throw Error(path + ": no such run directory");
    if (!fs::is_directory(dir)) throw Error(path + ": not a directory (give a bench run directory)");
    const bool csv = fs::is_regular_file(dir / kRunResultsCsv), json = fs::is_regular_file(dir / kRunResultsJson);
    if (!csv && !json) {
        throw Error(path + ": not a bench run directory (no results.csv, no results.json; `filterlab bench` writes "
                           "them)");
    }
    if (!csv || !json) {
        throw Error(fmt::format("{}: partial bench run: {} missing (was the run cut short?)", path,
                                csv ? kRunResultsJson : kRunResultsCsv));
    }
    RunDir run;
    run.path = path;
    const nlohmann::json results = read_json(dir / kRunResultsJson, path);
    if (!results.is_object() || !results.contains("context") || !results["context"].is_object()) {
        throw Error(path + ": results.json has no context (not written by filterlab bench)");
    }
    run.context = results["context"];
    run.rows = read_rows(dir, path, run_format(run.context, path), run.context, known);
    run.gallery = read_gallery(dir, path);
    if (fs::is_regular_file(dir / kSweepFile)) {
        run.sweep = read_json(dir / kSweepFile, path);
        if (!is_sweep(run.sweep)) throw Error(fmt::format("{}: {} is not a sweep of format 1", path, kSweepFile));
    }
    return run;
}

}  // namespace filterlab
