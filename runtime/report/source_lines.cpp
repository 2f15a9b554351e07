#include "source_lines.h"

#include <algorithm>
#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

namespace filterlab {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path &path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The text with every comment replaced by spaces (newlines kept, so line
// numbers stay); string and character literals are left as they are.
std::string strip_comments(const std::string &s) {
    std::string out = s;
    enum { code, line_comment, block_comment, string_literal, char_literal } state = code;
    for (std::size_t i = 0; i < s.size(); i++) {
        const char c = s[i], next = i + 1 < s.size() ? s[i + 1] : '\0';
        switch (state) {
        case code:
            if (c == '/' && next == '/') state = line_comment, out[i] = ' ';
            else if (c == '/' && next == '*') state = block_comment, out[i] = out[i + 1] = ' ', i++;
            else if (c == '"') state = string_literal;
            // A quote after a digit or letter is a digit separator (1'000), not a literal.
            else if (c == '\'' && !(i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1])))) state = char_literal;
            break;
        case line_comment:
            if (c == '\n') state = code;
            else out[i] = ' ';
            break;
        case block_comment:
            if (c == '*' && next == '/') state = code, out[i] = out[i + 1] = ' ', i++;
            else if (c != '\n') out[i] = ' ';
            break;
        case string_literal:
        case char_literal:
            if (c == '\\') i++;
            else if (c == (state == string_literal ? '"' : '\'')) state = code;
            break;
        }
    }
    return out;
}

int count_nonblank_lines(const std::string &text) {
    int lines = 0;
    bool content = false;
    for (char c : text) {
        if (c == '\n') lines += content, content = false;
        else if (!std::isspace(static_cast<unsigned char>(c))) content = true;
    }
    return lines + content;
}

// One top-level definition or declaration (namespaces are looked through).
struct Chunk {
    std::string text;  // comments removed
    std::string name;  // what it defines; empty when nothing to refer to
    std::set<std::string> identifiers;
    bool shared = false;
    std::string file;
    int first_line = 0, last_line = 0;
};

// Calls f on every identifier ([A-Za-z_]\w*) of text, in order: a scan, as
// std::regex would take most of a test's minute under the sanitizers.
template <typename F>
void for_each_identifier(const std::string &text, F &&f) {
    auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
    for (std::size_t i = 0; i < text.size();) {
        if (!(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_')) {
            i++;
            continue;
        }
        std::size_t end = i + 1;
        while (end < text.size() && word(text[end])) end++;
        f(text.substr(i, end - i));
        i = end;
    }
}

// Whether `re` matches at the start of t (m its match); compiled once, by the caller's static.
bool starts_with(const std::string &t, std::smatch &m, const std::regex &re) {
    return std::regex_search(t, m, re, std::regex_constants::match_continuous);
}

std::string defined_name(std::string t) {
    static const std::regex attributes{R"(__launch_bounds__\s*\([^)]*\)|alignas\s*\([^)]*\)|\[\[[^\]]*\]\])"};
    static const std::regex template_header{R"(\s*template\s*<)"}, alias{R"(\s*using\s+(\w+)\s*=)"},
        using_declaration{R"(\s*using\b)"}, type{R"(\s*(?:struct|class|union|enum(?:\s+class)?)\s+(\w+))"};
    // Attributes and launch bounds come before the name but take parentheses.
    if (t.find("__launch_bounds__") != std::string::npos || t.find("alignas") != std::string::npos ||
        t.find("[[") != std::string::npos)
        t = std::regex_replace(t, attributes, " ");
    std::smatch m;
    // Leading template headers, nested angle brackets included.
    while (starts_with(t, m, template_header)) {
        std::size_t i = m.length(), depth = 1;
        for (; i < t.size() && depth; i++) depth += t[i] == '<' ? 1 : t[i] == '>' ? -1 : 0;
        t = t.substr(i);
    }
    if (starts_with(t, m, alias)) return m[1];
    if (starts_with(t, m, using_declaration)) return "";  // using-declarations refer to others
    if (starts_with(t, m, type)) return m[1];
    std::string last;
    for_each_identifier(t.substr(0, t.find_first_of("({=[;")), [&](std::string id) { last = std::move(id); });
    return last;
}

bool starts_with_word(const std::string &s, std::size_t i, const std::string &word) {
    return s.compare(i, word.size(), word) == 0 &&
           (i + word.size() >= s.size() || !(std::isalnum(static_cast<unsigned char>(s[i + word.size()])) ||
                                              s[i + word.size()] == '_'));
}

// Splits a file into its top-level chunks, looking through namespace blocks
// and leaving out preprocessor lines between them.
std::vector<Chunk> chunks_of(const fs::path &path, const std::string &relative, bool shared) {
    const std::string s = strip_comments(read_text(path));
    std::vector<Chunk> chunks;
    int depth = 0, parens = 0;
    std::size_t start = std::string::npos;
    auto line_of = [&](std::size_t i) { return 1 + static_cast<int>(std::count(s.begin(), s.begin() + i, '\n')); };
    auto finish = [&](std::size_t end) {
        Chunk c;
        c.text = s.substr(start, end + 1 - start);
        c.first_line = line_of(start);
        c.last_line = line_of(end);
        c.name = defined_name(c.text);
        for_each_identifier(c.text, [&](std::string id) { c.identifiers.insert(std::move(id)); });
        c.shared = shared;
        c.file = relative;
        chunks.push_back(std::move(c));
        start = std::string::npos;
    };
    for (std::size_t i = 0; i < s.size(); i++) {
        const char c = s[i];
        if (start == std::string::npos) {
            if (std::isspace(static_cast<unsigned char>(c)) || c == ';' || c == '}') continue;  // '}' closes a namespace
            if (c == '#') {  // a preprocessor line, continuations included
                while (i < s.size() && !(s[i] == '\n' && s[i - 1] != '\\')) i++;
                continue;
            }
            if (starts_with_word(s, i, "namespace")) {
                const std::size_t end = s.find_first_of("{;", i);
                if (end == std::string::npos) break;
                i = end;  // a namespace block's brace is looked through; an alias ends at ';'
                continue;
            }
            start = i;
        }
        if (c == '"' || (c == '\'' && !(i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1]))))) {
            for (i++; i < s.size() && s[i] != c; i++) i += s[i] == '\\';
            continue;
        }
        if (c == '(') parens++;
        if (c == ')') parens--;
        if (c == '{') depth++;
        if (c == '}' && --depth == 0 && parens == 0) finish(i);
        else if (c == ';' && depth == 0 && parens == 0) finish(i);
    }
    return chunks;
}

// Counts `seeds` and every chunk of `pool` whose name a counted chunk uses.
// `seed_lines` gives each seed's own count (a schedule counts its body only).
LineCount reachable(const std::vector<Chunk> &pool, const std::vector<std::size_t> &seeds,
                    const std::function<int(const Chunk &)> &seed_lines) {
    LineCount count;
    std::vector<bool> taken(pool.size(), false);
    std::vector<std::size_t> queue = seeds;
    for (std::size_t s : seeds) taken[s] = true;
    for (std::size_t q = 0; q < queue.size(); q++) {
        const Chunk &c = pool[queue[q]];
        for (std::size_t j = 0; j < pool.size(); j++) {
            if (!taken[j] && !pool[j].name.empty() && c.identifiers.count(pool[j].name)) {
                taken[j] = true;
                queue.push_back(j);
            }
        }
    }
    for (std::size_t q = 0; q < queue.size(); q++) {
        const Chunk &c = pool[queue[q]];
        const int lines = q < seeds.size() ? seed_lines(c) : count_nonblank_lines(c.text);
        auto &parts = c.shared ? count.shared_parts : count.own_parts;
        (c.shared ? count.shared : count.own) += lines;
        const std::string part = c.name.empty() ? "(unnamed)" : c.name;
        if (std::find(parts.begin(), parts.end(), part) == parts.end()) parts.push_back(part);
    }
    return count;
}

std::vector<fs::path> files_in(const fs::path &dir, std::initializer_list<const char *> extensions) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string ext = it->path().extension().string();
        if (it->is_regular_file() && std::any_of(extensions.begin(), extensions.end(), [&](auto e) { return ext == e; }))
            files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

void add_chunks(std::vector<Chunk> &pool, const fs::path &file, const fs::path &root, bool shared) {
    for (Chunk &c : chunks_of(file, fs::relative(file, root).string(), shared)) pool.push_back(std::move(c));
}

}  // namespace

int count_code_lines(const std::string &text) { return count_nonblank_lines(strip_comments(text)); }

std::optional<LineCount> schedule_lines(const std::string &source_dir, const std::string &filter,
                                        const SourceSpan &span) {
    const fs::path root = source_dir, file = root / span.file;
    if (span.file.empty() || !fs::is_regular_file(file)) return std::nullopt;
    std::vector<Chunk> pool;
    add_chunks(pool, file, root, false);
    std::optional<std::size_t> seed;
    for (std::size_t i = 0; i < pool.size(); i++)
        if (pool[i].first_line == span.first_line && pool[i].last_line == span.last_line) seed = i;
    if (!seed) return std::nullopt;  // the source changed since the build read it
    // The schedule's span is the build's (its manifest); the chunks named as it
    // is (by the registration macro) are the other registrations, never called.
    const std::string registration = pool[*seed].name;
    for (Chunk &c : pool)
        if (c.name == registration) c.name.clear();
    // Headers beside the schedules are the filter's own; those of other
    // filters' schedules (a composed pipeline reusing a blur's register
    // blocking, say) and schedules/schedule_helpers.h are shared.
    const fs::path schedules = root / "schedules";
    for (const fs::path &h : files_in(schedules / filter, {".h"})) add_chunks(pool, h, root, false);
    for (const fs::path &h : files_in(schedules, {".h"}))
        if (h.filename() == "schedule_helpers.h") add_chunks(pool, h, root, true);
    std::error_code ec;
    for (auto it = fs::directory_iterator(schedules, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
        if (it->is_directory() && it->path().filename() != filter)
            for (const fs::path &h : files_in(it->path(), {".h"})) add_chunks(pool, h, root, true);
    LineCount count = reachable(pool, {*seed}, [](const Chunk &c) {
        const std::size_t open = c.text.find('{'), close = c.text.rfind('}');
        return open < close ? count_nonblank_lines(c.text.substr(open + 1, close - open - 1)) : 0;
    });
    count.file = span.file;
    count.own_parts.front() = fmt::format("the schedule's body (lines {}–{})", span.first_line, span.last_line);
    return count;
}

std::optional<LineCount> handwritten_lines(const std::string &source_dir, const std::string &filter,
                                           const std::string &variant) {
    const fs::path root = source_dir, dir = root / "handwritten" / filter;
    const std::string literal = "\"" + variant + "\"";
    for (const fs::path &file : files_in(dir, {".cu", ".cpp"})) {
        std::vector<Chunk> pool;
        add_chunks(pool, file, root, false);
        std::vector<std::size_t> seeds;
        for (std::size_t i = 0; i < pool.size(); i++)
            if (pool[i].text.find(literal) != std::string::npos) seeds.push_back(i);
        if (seeds.empty()) continue;
        // OpenCL kernels (.cl) are reached through their names in the launcher.
        for (const fs::path &h : files_in(dir, {".h", ".cuh", ".cl"})) add_chunks(pool, h, root, false);
        for (const fs::path &h : files_in(root / "handwritten", {".h", ".cuh"})) add_chunks(pool, h, root, true);
        LineCount count = reachable(pool, seeds, [](const Chunk &c) { return count_nonblank_lines(c.text); });
        count.file = fs::relative(file, root).string();
        return count;
    }
    return std::nullopt;
}

std::optional<LineCount> span_lines(const std::string &source_dir, const SourceSpan &span) {
    const fs::path file = fs::path(source_dir) / span.file;
    if (span.file.empty() || !fs::is_regular_file(file)) return std::nullopt;
    std::istringstream lines(strip_comments(read_text(file)));
    std::string line, kept;
    for (int number = 1; std::getline(lines, line); number++)
        if (number >= span.first_line && number <= span.last_line) kept += line + "\n";
    LineCount count;
    count.own = count_nonblank_lines(kept);
    count.file = span.file;
    count.own_parts = {fmt::format("the generator's estimates (lines {}–{})", span.first_line, span.last_line)};
    return count;
}

std::optional<int> algorithm_lines(const std::string &source_dir, const std::string &filter) {
    const fs::path header = fs::path(source_dir) / "generators" / (filter + ".h");
    if (!fs::is_regular_file(header)) return std::nullopt;
    return count_code_lines(read_text(header));
}

}  // namespace filterlab
