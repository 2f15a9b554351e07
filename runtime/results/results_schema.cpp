#include "results_schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <vector>

#include "error.h"
#include "run_format.h"
#include "schedule_point.h"

namespace filterlab {
namespace {

constexpr std::array<std::pair<Status, const char *>, 5> kStatusNames = {
    {{Status::ok, "ok"}, {Status::differs, "differs"}, {Status::wrong, "wrong"}, {Status::error, "error"},
     {Status::skipped, "skipped"}}};

// A column: its name, how a row's field is written, how it is read back, and
// the run format that added it (run_format.h).
struct Column {
    const char *name;
    std::function<std::string(const BenchRow &)> write;
    std::function<void(BenchRow &, const std::string &)> read;
    int since = 2;
};

double number(const std::string &text) {
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used == 0 || used != text.size()) throw Error(fmt::format("'{}' is not a number", text));
    return v;
}

// A name holding a comma would shift every later column: refused, never written.
Column text(const char *name, std::string BenchRow::*field) {
    return {name,
            [field, name](const BenchRow &r) {
                if ((r.*field).find(',') != std::string::npos)
                    throw Error(fmt::format("results.csv: {} '{}' holds a comma", name, r.*field));
                return r.*field;
            },
            [field](BenchRow &r, const std::string &s) { r.*field = s; }};
}

Column integer(const char *name, int BenchRow::*field) {
    return {name, [field](const BenchRow &r) { return std::to_string(r.*field); },
            [field](BenchRow &r, const std::string &s) { r.*field = static_cast<int>(number(s)); }};
}

Column real(const char *name, double BenchRow::*field, int decimals) {
    return {name, [field, decimals](const BenchRow &r) { return fmt::format("{:.{}f}", r.*field, decimals); },
            [field](BenchRow &r, const std::string &s) { r.*field = number(s); }};
}

Column origin_column() {
    return {"origin", [](const BenchRow &r) { return std::string(to_string(r.origin)); },
            [](BenchRow &r, const std::string &s) {
                const auto o = parse_origin(s);
                if (!o) throw Error(fmt::format("'{}' is not an origin", s));
                r.origin = *o;
            },
            3};
}

Column added_in(int format, Column c) {
    c.since = format;
    return c;
}

Column added_in_3(Column c) { return added_in(3, std::move(c)); }

// The columns, in order: the one owner of results.csv's layout.
const std::vector<Column> &columns() {
    static const std::vector<Column> all = {
        text("filter", &BenchRow::filter),
        text("variant", &BenchRow::variant),
        text("backend", &BenchRow::backend),
        text("kind", &BenchRow::kind),
        origin_column(),
        added_in_3(text("algorithm", &BenchRow::algorithm)),
        added_in_3(text("point", &BenchRow::point)),
        added_in(5, text("path", &BenchRow::path)),
        integer("width", &BenchRow::width),
        integer("height", &BenchRow::height),
        integer("channels", &BenchRow::channels),
        text("params", &BenchRow::params),
        {"status", [](const BenchRow &r) { return std::string(to_string(r.status)); },
         [](BenchRow &r, const std::string &s) { r.status = parse_status(s); }},
        integer("samples", &BenchRow::samples),
        integer("buffers", &BenchRow::buffers),
        real("median_us", &BenchRow::median_us, 3),
        real("min_us", &BenchRow::min_us, 3),
        real("max_us", &BenchRow::max_us, 3),
        real("p25_us", &BenchRow::p25_us, 3),
        real("p75_us", &BenchRow::p75_us, 3),
        real("spread_pct", &BenchRow::spread_pct, 2),
        real("gb_per_s", &BenchRow::gb_per_s, 2),
        real("roofline_pct", &BenchRow::roofline_pct, 2),
        integer("threads", &BenchRow::threads),
        // Last, so that a note holding commas written by an older writer still reads.
        {"note",
         [](const BenchRow &r) {
             std::string note = r.note;
             std::replace(note.begin(), note.end(), ',', ';');
             return note;
         },
         [](BenchRow &r, const std::string &s) { r.note = s; }},
    };
    return all;
}

// The columns a run of `format` has: those added up to it, in the same order.
const std::vector<Column> &columns_of(int format) {
    static const std::array<std::vector<Column>, kRunFormat + 1> each = [] {
        std::array<std::vector<Column>, kRunFormat + 1> out;
        for (int f = kOldestReadRunFormat; f <= kRunFormat; f++)
            for (const Column &column : columns())
                if (column.since <= f) out[f].push_back(column);
        return out;
    }();
    if (format < kOldestReadRunFormat || format > kRunFormat) throw Error(fmt::format("no run format {}", format));
    return each[format];
}

std::string header_of(const std::vector<Column> &cs) {
    std::string h;
    for (std::size_t i = 0; i < cs.size(); i++) h += (i ? "," : "") + std::string(cs[i].name);
    return h;
}

// Every field, empty ones included (",," and a trailing ',').
std::vector<std::string> split(const std::string &line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
        fields.push_back(line.substr(start, comma - start));
    }
    fields.push_back(line.substr(start));
    return fields;
}

}  // namespace

const char *to_string(Status status) {
    for (auto &[s, name] : kStatusNames)
        if (s == status) return name;
    return "?";
}

Status parse_status(std::string_view text) {
    for (auto &[s, name] : kStatusNames)
        if (text == name) return s;
    throw Error(fmt::format("'{}' is not a status (ok, differs, wrong, error, skipped)", text));
}

const std::string &results_csv_header() {
    static const std::string header = header_of(columns());
    return header;
}

std::string results_csv_header(int format) { return header_of(columns_of(format)); }

const std::string &format2_csv_header() {
    static const std::string header = header_of(columns_of(2));
    return header;
}

std::string to_csv_line(const BenchRow &row) { return to_csv_line(row, kRunFormat); }

std::string to_csv_line(const BenchRow &row, int format) {
    const std::vector<Column> &cs = columns_of(format);
    std::string line;
    for (std::size_t i = 0; i < cs.size(); i++) line += (i ? "," : "") + cs[i].write(row);
    return line;
}

namespace {

BenchRow parse_with(const std::vector<Column> &cs, const std::string &line) {
    std::vector<std::string> f = split(line);
    const std::size_t n = cs.size();
    if (f.size() < n) throw Error(fmt::format("{} fields, expected {}", f.size(), n));
    for (std::size_t i = n; i < f.size(); i++) f[n - 1] += "," + f[i];  // the note, last
    BenchRow row;
    for (std::size_t i = 0; i < n; i++) {
        try {
            cs[i].read(row, f[i]);
        } catch (const Error &e) {
            throw Error(fmt::format("column {} ({}): {}", i + 1, cs[i].name, e.what()));
        }
    }
    if (row.timed() && !(row.median_us > 0)) throw Error("a timed result with no time");
    return row;
}

}  // namespace

std::string point_text(const std::vector<std::pair<std::string, int>> &point) {
    return schedules::Point::of(point).text();
}

BenchRow parse_csv_line(const std::string &line) { return parse_with(columns(), line); }

BenchRow parse_csv_line(const std::string &line, int format) { return parse_with(columns_of(format), line); }

BenchRow parse_format2_csv_line(const std::string &line) { return parse_with(columns_of(2), line); }

}  // namespace filterlab
