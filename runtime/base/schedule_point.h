// One point of a schedule's space, and the one C++ reader of its spelling.
//
// A point gives each axis a schedule declares (AXES("tile_x=16,[32],64
// tile_y=2,4,[8],16")) one integer value. Everywhere a person reads or types
// one it is spelled the same way,
//
//     tile_x=64+tile_y=4
//
// each axis `name=value` (a name [a-z][a-z0-9_]*, a decimal integer), the axes
// joined by '+', nothing else (no spaces, no ','); "" is the point of a
// schedule without axes. So it reads in a frozen point's registration
// (FILTERLAB_FROZEN(..., "tile_x=64+tile_y=4")), in a sweep variant's name
// (cuda_tile[tile_x=64+tile_y=4]), in results.csv and in reports.
// filterlab_build/schedule_grammar.py (read_point) is the Python reader of the same
// spelling; tests/schedule_grammar/points.json holds the cases both are tested
// on.
//
// Two forms are derived from it mechanically, never typed:
//   - the generator parameter, "tile_x:64+tile_y:4": Halide's generator
//     command line splits `param=value` at every '=' and refuses a value that
//     holds one (Halide 21, Generator.cpp), so '=' crosses it as ':'. The
//     build passes it (the manifest's point "parameter"); the generator reads
//     its GeneratorParam `point` with Point::from_parameter.
//   - the library tag, "tile_x64_tile_y4": a sweep point's static library is
//     <filter>_<target>_<schedule>__<tag> ('=' dropped, '+' as '_', a '-' of
//     a negative value as 'm').
//
// Standard library only (no Halide): the generators, the runtime and the
// tests include it alike.
#pragma once

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace filterlab::schedules {

class Point {
public:
    using Values = std::vector<std::pair<std::string, int>>;

    Point() = default;
    // Reads the spelling "axis=value+axis=value" ("": no axes); anything else
    // throws std::invalid_argument saying what is wrong.
    explicit Point(const std::string &text);
    // The point of these values, in this order (each axis a name, given once).
    static Point of(const Values &values);
    // The generator parameter's form ("tile_x:64+tile_y:4") read back, as
    // the build passes it; a spelling with '=' is refused (it cannot cross the
    // generator's command line).
    static Point from_parameter(const std::string &parameter);
    // The spelling turned into the generator parameter's form (checked).
    static std::string to_parameter(const std::string &text) { return Point(text).parameter(); }

    // The value of an axis; one the point does not give is an error.
    int operator[](const std::string &axis) const;
    // Whether the point gives the axis.
    bool has(const std::string &axis) const;
    bool empty() const { return values_.empty(); }
    const Values &values() const { return values_; }

    std::string text() const { return joined('=', '+'); }       // "tile_x=64+tile_y=4"
    std::string parameter() const { return joined(':', '+'); }  // "tile_x:64+tile_y:4"
    std::string library_tag() const;                            // "tile_x64_tile_y4"

private:
    std::string joined(char between, char separator) const;
    static void fail(const std::string &text, const std::string &what) {
        throw std::invalid_argument("point '" + text + "': " + what);
    }
    static constexpr const char *kItem = "(axis: [a-z][a-z0-9_]*; value: an integer, no leading zeros)";
    static bool is_axis_name(const std::string &name);
    void add(const std::string &text, const std::string &axis, const std::string &value);

    Values values_;
};

inline bool Point::is_axis_name(const std::string &name) {
    if (name.empty() || name[0] < 'a' || name[0] > 'z') return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

inline void Point::add(const std::string &text, const std::string &axis, const std::string &value) {
    const auto unreadable = [&] { fail(text, "'" + axis + "=" + value + "' is not axis=value " + kItem); };
    const std::size_t sign = !value.empty() && value[0] == '-';
    if (!is_axis_name(axis) || value.size() == sign) unreadable();
    for (std::size_t i = sign; i < value.size(); i++)
        if (value[i] < '0' || value[i] > '9') unreadable();
    errno = 0;
    const long long number = std::strtoll(value.c_str(), nullptr, 10);
    if (errno == ERANGE || number < INT_MIN || number > INT_MAX) fail(text, "the value of " + axis + " is out of range");
    if (std::to_string(number) != value) unreadable();  // one spelling per value: no leading zeros, no -0
    if (has(axis)) fail(text, "axis " + axis + " given twice");
    values_.emplace_back(axis, static_cast<int>(number));
}

inline Point::Point(const std::string &text) {
    if (text.empty()) return;
    if (text.find(',') != std::string::npos) {
        std::string plus = text;
        for (char &c : plus) c = c == ',' ? '+' : c;
        fail(text, "axes are joined by '+', not ',' (" + plus + ")");
    }
    for (std::size_t at = 0;;) {
        const std::size_t end = text.find('+', at);
        const std::string item = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (item.empty()) fail(text, "an empty axis (axis=value items joined by one '+')");
        const std::size_t equals = item.find('=');
        if (equals == std::string::npos) fail(text, "'" + item + "' is not axis=value " + kItem);
        add(text, item.substr(0, equals), item.substr(equals + 1));
        if (end == std::string::npos) break;
        at = end + 1;
    }
}

inline Point Point::of(const Values &values) {
    Point point;
    std::string text;
    for (const auto &[axis, value] : values) text += (text.empty() ? "" : "+") + axis + "=" + std::to_string(value);
    for (const auto &[axis, value] : values) point.add(text, axis, std::to_string(value));
    return point;
}

inline Point Point::from_parameter(const std::string &parameter) {
    if (parameter.find('=') != std::string::npos)
        throw std::invalid_argument("point parameter '" + parameter +
                                    "': spelled with '=', which a generator's command line cannot carry (the build "
                                    "passes axis:value+axis:value)");
    std::string text = parameter;
    for (char &c : text) c = c == ':' ? '=' : c;
    return Point(text);
}

inline int Point::operator[](const std::string &axis) const {
    for (const auto &[name, value] : values_)
        if (name == axis) return value;
    throw std::invalid_argument("the schedule reads axis '" + axis + "', which its point ('" + text() +
                                "') does not give: declare it in AXES(\"...\")");
}

inline bool Point::has(const std::string &axis) const {
    for (const auto &[name, value] : values_)
        if (name == axis) return true;
    return false;
}

inline std::string Point::joined(char between, char separator) const {
    std::string out;
    for (const auto &[axis, value] : values_) {
        if (!out.empty()) out += separator;
        out += axis + between + std::to_string(value);
    }
    return out;
}

inline std::string Point::library_tag() const {
    std::string out;
    for (const auto &[axis, value] : values_) {
        std::string number = std::to_string(value);
        if (number[0] == '-') number[0] = 'm';
        out += (out.empty() ? "" : "_") + axis + number;
    }
    return out;
}

}  // namespace filterlab::schedules
