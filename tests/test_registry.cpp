// The registry and the contract's parameters.
#include <HalideRuntime.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "box_cpu_tiled.h"
#include "compiled_pipeline.h"
#include "contract_ranges.h"
#include "error.h"
#include "filters.h"
#include "nlmeans_cuda_fused.h"
#include "noise.h"
#include "plugins.h"
#include "reference.h"
#include "registry.h"
#include "schedule_point.h"

using namespace filterlab;

TEST_CASE("every filter of the contract has its reference registered") {
    for (const FilterInfo &f : all_filters()) {
        CAPTURE(f.name);
        const Variant &ref = find_variant(f.name, "reference");
        CHECK(ref.kind == Kind::reference);
        CHECK(ref.backend == Backend::cpu);
    }
}

namespace {

std::string source_text(const std::string &path) {
    std::ifstream in(std::string(FILTERLAB_SOURCE_DIR) + "/" + path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The quoted values, each once, of the lines of a Python source that, past
// their indentation, start with `key = "` (a class attribute: contract = "direct").
std::vector<std::string> python_attributes(const std::string &text, const std::string &key) {
    const std::string prefix = key + " = \"";
    std::vector<std::string> values;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const std::size_t start = line.find_first_not_of(' ');
        if (start == std::string::npos || line.compare(start, prefix.size(), prefix) != 0) continue;
        const std::size_t end = line.find('"', start + prefix.size());
        if (end == std::string::npos) continue;
        const std::string value = line.substr(start + prefix.size(), end - start - prefix.size());
        if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
    }
    return values;
}

// The places of docs/extending.md ("Adding a filter") that `filter` is not
// wired into, each named as that section names it, by its number. Entry 1
// (runtime/core/filters.cpp) is the list of filters the caller walks.
std::vector<std::string> places_missing(const FilterInfo &f) {
    namespace fs = std::filesystem;
    const fs::path source = FILTERLAB_SOURCE_DIR;
    std::vector<std::string> missing;
    auto need = [&](bool wired, const std::string &place) {
        if (!wired) missing.push_back(place);
    };
    auto registered = [&](Kind kind) {
        return std::any_of(all_variants().begin(), all_variants().end(),
                           [&](const Variant &v) { return v.filter == f.name && v.kind == kind; });
    };
    // The contract.
    need(static_cast<bool>(f.reference), "2. its reference (FilterInfo::reference, runtime/core/reference.h)");
    need(fs::is_directory(source / "handwritten" / f.name), "3. its kernels, handwritten/" + f.name + "/");
    need(source_text("runtime/api/include/filterlab/filterlab.h").find("Outcome " + f.name + "(const ImageRef &in") !=
                 std::string::npos &&
             source_text("runtime/api/api.cpp").find("run(\"" + f.name + "\"") != std::string::npos,
         "4. its API function, declared in runtime/api/include/filterlab/filterlab.h, defined in api.cpp");
    // Halide.
    need(fs::is_regular_file(source / "generators" / (f.name + ".h")) &&
             fs::is_regular_file(source / "generators" / (f.name + "_generator.cpp")),
         "5. its algorithm, generators/" + f.name + ".h and " + f.name + "_generator.cpp");
    const fs::path halide = source / "schedules" / f.name;
    need(fs::is_regular_file(halide / (f.name + "_cpu.cpp")) && fs::is_regular_file(halide / (f.name + "_cuda.cpp")) &&
             fs::is_regular_file(source / "runtime" / "languages" / "bindings" / (f.name + "_binding.h")),
         "6. its schedules, schedules/" + f.name + "/" + f.name + "_cpu.cpp and " + f.name +
             "_cuda.cpp, and its binding, runtime/languages/bindings/" + f.name + "_binding.h");
    const std::string schedules = source_text("schedules/CMakeLists.txt");
    need(schedules.find("filterlab_halide_filter(" + f.name + " ") != std::string::npos ||
             schedules.find("filterlab_halide_filter(" + f.name + "\n") != std::string::npos,
         "7. its line in schedules/CMakeLists.txt");
    need(registered(Kind::halide), "6-7. a Halide variant registered (its schedules built)");
    // TVM.
    const std::string algorithms_file = "generators/tvm/" + f.name + ".py";
    need(fs::is_regular_file(source / algorithms_file), "8. its TVM algorithms, " + algorithms_file);
    const std::string algorithms = source_text(algorithms_file);
    for (const std::string &contract : python_attributes(algorithms, "contract"))
        need(std::any_of(f.algorithms.begin(), f.algorithms.end(), [&](auto &a) { return a.first == contract; }),
             "8. its TVM algorithms' contract \"" + contract + "\", a name of FilterInfo::algorithms (entry 1)");
    need(fs::is_regular_file(source / "schedules" / f.name / ("tvm_" + f.name + ".py")),
         "9. its TVM schedules, schedules/" + f.name + "/tvm_" + f.name + ".py");
    need(registered(Kind::tvm), "8-9. a TVM variant registered (a schedule with frontier=, built)");
    need(fs::is_regular_file(source / "tests" / "tvm" / (f.name + "_cases.py")),
         "10. its TVM cases, tests/tvm/" + f.name + "_cases.py");
    const std::string scalars_h = source_text("runtime/languages/tvm_variant.h"),
                      scalars_cpp = source_text("runtime/languages/tvm_variant.cpp");
    for (const std::string &binding : python_attributes(algorithms, "binding")) {
        const std::string function = "void " + binding + "(const ParamValues &";
        need(scalars_h.find(function) != std::string::npos && scalars_cpp.find(function) != std::string::npos,
             "11. its TVM binding \"" + binding + "\", a function of tvm_scalars declared in "
             "runtime/languages/tvm_variant.h and defined in tvm_variant.cpp");
    }
    return missing;
}

}  // namespace

// Entry 1 of "Adding a filter" (runtime/core/filters.cpp) is the list walked here.
// Registered whether or not a GPU is here (then unavailable, and saying why):
// a build that left the kernels' objects out of the binary fails here.
TEST_CASE("every filter of the contract has handwritten CUDA kernels registered") {
    for (const FilterInfo &f : all_filters()) {
        CAPTURE(f.name);
        const auto &all = all_variants();
        CHECK(std::any_of(all.begin(), all.end(), [&](const Variant &v) {
            return v.filter == f.name && v.kind == Kind::handwritten && v.backend == Backend::cuda;
        }));
    }
}

TEST_CASE("every filter of the contract is wired into each place docs/extending.md lists") {
    for (const FilterInfo &f : all_filters()) {
        for (const std::string &place : places_missing(f)) FAIL_CHECK(f.name << " is not wired into " << place);
    }
}

TEST_CASE("variant names are unique within a filter and ids are readable") {
    std::set<std::string> ids;
    for (const Variant &v : all_variants()) {
        CHECK(ids.insert(v.filter + "/" + v.name).second);
        CHECK(v.name.find(' ') == std::string::npos);
        CHECK(v.run);
    }
}

TEST_CASE("box: at least one Halide variant per backend takes every radius of the contract") {
    for (Backend backend : {Backend::cpu, Backend::cuda}) {
        bool found = false;
        for (const Variant &v : all_variants()) {
            if (v.filter != "box" || v.kind != Kind::halide || v.backend != backend) continue;
            bool all = true;
            for (int r = kBoxMinRadius; r <= kBoxMaxRadius; r++)
                all = all && v.unsupported_reason({{"radius", r}}).empty();
            found = found || all;
        }
        CHECK(found);
    }
}

// The build compiles median's size into each library (schedules/CMakeLists.txt,
// VALUES): a schedule that restricts nothing must have one library for each of
// the contract's sizes, so the two lists cannot drift apart.
TEST_CASE("median: a Halide schedule without restriction has a library for every size of the contract") {
    const std::vector<double> sizes = filter_info("median").params.front().allowed;
    int checked = 0;
    for (const Variant &v : all_variants()) {
        if (v.filter != "median" || v.kind != Kind::halide || !v.supports.empty()) continue;
        CAPTURE(v.name);
        // Its generic libraries: not a words twin, nor one of a shape (FILTERLAB_SHAPES).
        std::size_t generic = 0;
        for (const VariantLibrary &library : v.libraries) {
            const std::string &lib = library.name;
            bool twin = lib.ends_with("_words");
            for (const ImageShape &s : v.exact_shapes) twin = twin || lib.find("_" + shape_text(s)) != std::string::npos;
            for (const auto &[s, why] : v.refused_shapes) twin = twin || lib.find("_" + shape_text(s)) != std::string::npos;
            twin = twin || lib.find("_" + shape_text(kAlignedClass)) != std::string::npos;
            generic += !twin;
        }
        CHECK(generic == sizes.size());
        for (double k : sizes) CHECK(v.unsupported_reason({{"size", k}}).empty());
        checked++;
    }
    CHECK(checked > 0);
}

TEST_CASE("parameter support specs") {
    auto s = parse_supports("radius=1..15;size=3,5,7");
    REQUIRE(s.size() == 2);
    CHECK(s[0].contains(1));
    CHECK(s[0].contains(15));
    CHECK(!s[0].contains(16));
    CHECK(s[1].contains(5));
    CHECK(!s[1].contains(4));
    CHECK(parse_supports("").empty());
    const Variant &v = find_variant("box", "cuda_rows8");
    CHECK(v.unsupported_reason({{"radius", 1}}).empty());
    CHECK(v.unsupported_reason({{"radius", 2}}).find("radius in {1}") != std::string::npos);
    CHECK(v.params_json()["radius"]["values"] == nlohmann::json::array({1}));
}

// The one C++ reader of a point's spelling (runtime/base/schedule_point.h) on
// the cases the Python one (filterlab_build/schedule_grammar.py) is checked on too
// (tests/schedule_grammar/check_grammar.py).
TEST_CASE("schedule points: one spelling, read by one reader, the generator's form and the library tag derived") {
    using filterlab::schedules::Point;
    std::ifstream in(std::string(FILTERLAB_SOURCE_DIR) + "/tests/schedule_grammar/points.json");
    REQUIRE(in);
    const nlohmann::json cases = nlohmann::json::parse(in);
    REQUIRE(cases["good"].size() >= 4);
    for (const auto &c : cases["good"]) {
        const std::string text = c[0], parameter = c[1], tag = c[2];
        CAPTURE(text);
        const Point point(text);
        CHECK(point.text() == text);
        CHECK(point.parameter() == parameter);
        CHECK(point.library_tag() == tag);
        CHECK(Point::to_parameter(text) == parameter);
        CHECK(Point::from_parameter(parameter).text() == text);  // the build's form, read back by the generator
        CHECK(Point::of(point.values()).text() == text);
        CHECK(point.empty() == text.empty());
    }
    REQUIRE(cases["bad"].size() >= 10);
    for (const auto &c : cases["bad"]) {
        const std::string text = c[0], error = c[1];
        CAPTURE(text);
        CHECK_THROWS_WITH_AS(Point{text}, ("point '" + text + "': " + error).c_str(), std::invalid_argument);
        if (text.find('=') != std::string::npos && text.find(':') == std::string::npos) {
            std::string parameter = text;  // the same mistake in the generator's form
            std::replace(parameter.begin(), parameter.end(), '=', ':');
            CHECK_THROWS_AS(Point::from_parameter(parameter), std::invalid_argument);
        }
    }
    for (const auto &c : cases["bad_parameters"]) {
        const std::string parameter = c[0], error = c[1];
        CHECK_THROWS_WITH_AS(Point::from_parameter(parameter), error.c_str(), std::invalid_argument);
    }
    const Point point("tile_x=64+tile_y=4");
    CHECK(point["tile_y"] == 4);
    CHECK(point.has("tile_x"));
    CHECK(!point.has("warps"));
    CHECK(point.values() == Point::Values{{"tile_x", 64}, {"tile_y", 4}});
    CHECK_THROWS_WITH_AS(point["warps"],
                         "the schedule reads axis 'warps', which its point ('tile_x=64+tile_y=4') does not give: "
                         "declare it in AXES(\"...\")",
                         std::invalid_argument);
    CHECK_THROWS_AS(Point::of({{"tile_x", 1}, {"tile_x", 2}}), std::invalid_argument);
    CHECK_THROWS_AS(Point::of({{"Tile", 1}}), std::invalid_argument);
}

// Every Halide variant the build registered carries its point as the registry
// read it, and a sweep point's name and library say it in the one spelling.
TEST_CASE("schedule points: every variant's point, name and library agree with the one spelling") {
    using filterlab::schedules::Point;
    int points = 0;
    for (const Variant &v : all_variants()) {
        if (v.kind != Kind::halide || v.point.empty()) continue;
        CAPTURE(v.filter);
        CAPTURE(v.name);
        const std::string text = Point::of(v.point).text();
        CHECK(Point(text).values() == v.point);
        if (v.origin != Origin::frozen_point) CHECK(v.point.size() == v.axes.size());  // a frozen one declares none
        if (v.origin == Origin::sweep_point) {
            const std::size_t bracket = v.name.find('[');
            REQUIRE(bracket != std::string::npos);
            CHECK(v.name.substr(bracket) == "[" + text + "]");
            REQUIRE(!v.libraries.empty());
            CHECK(v.libraries.front().name.rfind(v.filter + "_" + v.name.substr(0, bracket) + "__" +
                                                     Point(text).library_tag(), 0) == 0);
        }
        points++;
    }
    CHECK(points > 0);
}

TEST_CASE("parameters are parsed and validated against the contract") {
    const FilterInfo &box = filter_info("box");
    CHECK(box.parse_params({})["radius"] == 1);
    CHECK(box.parse_params({"radius=7"})["radius"] == 7);
    CHECK_THROWS_WITH_AS(box.parse_params({"radius=16"}), "box: radius must be an integer in 1..15, got 16", Error);
    CHECK_THROWS_AS(box.parse_params({"radius=1.5"}), Error);
    CHECK_THROWS_AS(box.parse_params({"radius=x"}), Error);
    CHECK_THROWS_AS(box.parse_params({"radius"}), Error);
    CHECK_THROWS_WITH_AS(box.parse_params({"sigma=1"}), "box has no parameter 'sigma'", Error);
    CHECK_THROWS_AS(filter_info("median").parse_params({"size=4"}), Error);
    CHECK_THROWS_AS(filter_info("gaussian").parse_params({"sigma=0"}), Error);
    CHECK_THROWS_AS(filter_info("gaussian").parse_params({"sigma=1e-200"}), Error);
    CHECK_THROWS_AS(filter_info("nlmeans").parse_params({"h=1e-200"}), Error);
    CHECK(filter_info("gaussian").parse_params({"sigma=0.01"})["sigma"] == doctest::Approx(0.01));
    CHECK_THROWS_AS(filter_info("gaussian").parse_params({"sigma=nan"}), Error);
    std::string known;
    for (const FilterInfo &f : all_filters()) known += (known.empty() ? "" : ", ") + f.name;
    CHECK_THROWS_WITH_AS(filter_info("blur"), ("unknown filter 'blur' (known: " + known + ")").c_str(), Error);
    CHECK_THROWS_AS(find_variant("box", "nonesuch"), Error);
}

TEST_CASE("the float division of generators/arithmetic.h is exact for every case a filter can produce") {
    // The same operations as divide_round_half_up, in the same float
    // precision: every window size n = (2r+1)^2 of box, every possible sum.
    for (int r = kBoxMinRadius; r <= kBoxMaxRadius; r++) {
        const int n = (2 * r + 1) * (2 * r + 1);
        const float reciprocal = 1.0f / static_cast<float>(n);
        for (int sum = 0; sum <= 255 * n; sum++) {
            const float a = static_cast<float>(sum + n / 2) + 0.5f;
            const auto q = static_cast<uint32_t>(a * reciprocal);
            if (q != static_cast<uint32_t>((sum + n / 2) / n)) FAIL("inexact at n=", n, " sum=", sum);
        }
    }
}

TEST_CASE("output comparison: exact for integer filters, the tolerance for nlmeans") {
    Image a(10, 10, 1, 100), b = a;
    CHECK(compare_to_reference(filter_info("box"), a, b).equal);
    b.at(3, 4, 0) = 101;
    auto exact = compare_to_reference(filter_info("box"), a, b);
    CHECK(!exact.equal);
    CHECK(exact.first_x == 3);
    CHECK(exact.first_y == 4);
    CHECK(compare_to_reference(filter_info("nlmeans"), a, b).equal);  // 1 of 100 differs by 1
    b.at(5, 5, 0) = 101;
    CHECK(!compare_to_reference(filter_info("nlmeans"), a, b).equal);  // 2% differ
    Image c = a;
    c.at(0, 0, 0) = 102;
    CHECK(!compare_to_reference(filter_info("nlmeans"), a, c).equal);  // off by 2
}

TEST_CASE("the OpenCV peer plugin, when built, loads and registers its peers") {
#ifdef FILTERLAB_HAVE_OPENCV
    const auto &plugins = load_plugins();
    auto opencv = std::find_if(plugins.begin(), plugins.end(), [](auto &p) { return p.name == "opencv"; });
    REQUIRE(opencv != plugins.end());
    CHECK(opencv->loaded);
    CHECK(opencv->detail.find("OpenCV") == 0);
    for (auto [filter, name] : {std::pair{"box", "opencv_blur"}, {"median", "opencv_median_blur"},
                                {"gaussian", "opencv_gaussian_blur"}, {"nlmeans", "opencv_fast_nl_means"}}) {
        const Variant &v = find_variant(filter, name);
        CHECK(v.kind == Kind::peer);
        CHECK(v.backend == Backend::cpu);
    }
#else
    MESSAGE("OpenCV was not found at build time: no plugin to check");
    CHECK(std::none_of(all_variants().begin(), all_variants().end(),
                       [](const Variant &v) { return v.name.rfind("opencv_", 0) == 0; }));
#endif
}

TEST_CASE("gaussian_maxpool is the composition of the two contract filters") {
    const FilterInfo &f = filter_info("gaussian_maxpool");
    CHECK(f.output_size(7, 5) == std::pair{3, 2});
    CHECK(f.min_side == 2);
    const Image in = random_image(9, 6, 3, 7);
    for (double sigma : {0.6, 1.0, 2.5}) {
        const Image composed = reference::maxpool(reference::gaussian(in, sigma));
        const Image out = f.reference(in, {{"sigma", sigma}});
        CHECK(compare_to_reference(f, composed, out).mismatches == 0);
    }
}

// The generated libraries tell their scalar inputs' defaults and ranges (the
// contract's) through their _metadata(), for users of one library alone.
namespace {
const halide_filter_argument_t *argument(const halide_filter_metadata_t *m, const std::string &name) {
    for (int i = 0; i < m->num_arguments; i++)
        if (name == m->arguments[i].name) return &m->arguments[i];
    return nullptr;
}
}  // namespace

// The generators state the ranges in their Inputs' metadata: the same as
// their one owner's (contract_ranges.h).
TEST_CASE("generated libraries: namespaced entry points whose metadata carries the contract's ranges") {
    const halide_filter_metadata_t *box = filterlab::halide::box_cpu_tiled_metadata();
    const halide_filter_argument_t *radius = argument(box, "radius");
    REQUIRE(radius);
    REQUIRE((radius->scalar_def && radius->scalar_min && radius->scalar_max));
    CHECK(radius->scalar_def->u.i32 == 1);
    CHECK(radius->scalar_min->u.i32 == kBoxMinRadius);
    CHECK(radius->scalar_max->u.i32 == kBoxMaxRadius);
    const halide_filter_metadata_t *nlmeans = filterlab::halide::nlmeans_cuda_fused_metadata();
    const halide_filter_argument_t *search = argument(nlmeans, "search"), *h = argument(nlmeans, "h");
    REQUIRE((search && h && search->scalar_max && h->scalar_min));
    CHECK(search->scalar_max->u.i32 == kNlmeansMaxSearch);
    CHECK(h->scalar_min->u.f32 == doctest::Approx(kNlmeansMinH));
}

namespace {
int generic_entry() { return 1; }
int generic_words() { return 2; }
int shaped_entry() { return 3; }
int shaped_words() { return 4; }
int other_size() { return 5; }
}  // namespace

namespace {
int aligned_entry() { return 6; }
int aligned_words() { return 7; }
}  // namespace

TEST_CASE("a library's shape twins: taken for their shape or class, the generic library otherwise or when barred") {
    using Entry = int (*)();
    const std::vector<CompiledPipeline<Entry>> compiled = {
        {{{"size", 3}},
         &generic_entry,
         &generic_words,
         {{{1920, 1080}, &shaped_entry, &shaped_words}, {kAlignedClass, &aligned_entry, &aligned_words}}},
        {{{"size", 5}}, &other_size},
    };
    const ParamValues three = {{"size", 3}}, five = {{"size", 5}};
    CHECK(select_pipeline(compiled, three, false, {1920, 1080}, true)() == 3);
    CHECK(select_pipeline(compiled, three, true, {1920, 1080}, true)() == 4);
    CHECK(select_pipeline(compiled, three, false, {1080, 1920}, true)() == 1);  // width and height, not a set
    CHECK(select_pipeline(compiled, three, true, {1921, 1080}, true)() == 2);
    CHECK(select_pipeline(compiled, three, false, {1024, 77}, true)() == 6);    // a multiple of 64 wide: the class
    CHECK(select_pipeline(compiled, three, true, {1024, 77}, true)() == 7);
    CHECK(select_pipeline(compiled, three, false, {1024, 77}, false)() == 1);   // rows not pitched for it
    CHECK(select_pipeline(compiled, three, false, {1088, 77}, true)() == 6);
    CHECK(select_pipeline(compiled, three, false, {1000, 77}, true)() == 1);
    CHECK(select_pipeline(compiled, five, false, {1920, 1080}, true)() == 5);  // no twin: its one library
    CHECK_THROWS_AS(select_pipeline(compiled, five, true, {1920, 1080}), Error);  // no words library
    {
        const PathCeilingScope aligned(ShapePath::aligned);
        CHECK(select_pipeline(compiled, three, false, {1920, 1080}, true)() == 6);  // 1920 = 30 x 64
        {
            const PathCeilingScope generic(ShapePath::generic);
            CHECK(select_pipeline(compiled, three, false, {1920, 1080}, true)() == 1);
            CHECK(select_pipeline(compiled, three, true, {1920, 1080}, true)() == 2);
            const PathCeilingScope raised(ShapePath::exact);  // a scope lowers the ceiling, never raises it
            CHECK(path_ceiling == ShapePath::generic);
        }
        CHECK(path_ceiling == ShapePath::aligned);  // a nested scope gives back what it found
    }
    CHECK(path_ceiling == ShapePath::exact);
    CHECK(select_pipeline(compiled, three, false, {1920, 1080}, true)() == 3);
}

TEST_CASE("a variant's path for an image: exact for a shape it was compiled for, aligned for the class, generic otherwise") {
    Variant dsl;
    dsl.kind = Kind::tvm;
    dsl.exact_shapes = {{3840, 2160}};
    CHECK(shape_path(dsl, {3840, 2160}) == "exact");
    CHECK(shape_path(dsl, {2160, 3840}) == "generic");
    CHECK(more_general_paths(dsl, {3840, 2160}) == std::vector<ShapePath>{ShapePath::generic});
    dsl.aligned_path = true;
    CHECK(shape_path(dsl, {2176, 3840}) == "aligned");  // 34 x 64
    CHECK(shape_path(dsl, {2160, 3840}) == "generic");
    CHECK(more_general_paths(dsl, {3840, 2160}) == std::vector<ShapePath>{ShapePath::aligned, ShapePath::generic});
    CHECK(more_general_paths(dsl, {1000, 3}) == std::vector<ShapePath>{});
    {
        const PathCeilingScope generic(ShapePath::generic);
        CHECK(shape_path(dsl, {3840, 2160}) == "generic");
        CHECK(more_general_paths(dsl, {3840, 2160}).empty());
    }
    Variant hand = dsl;
    hand.kind = Kind::handwritten;
    CHECK(shape_path(hand, {3840, 2160}).empty());
    CHECK(more_general_paths(hand, {3840, 2160}).empty());
}

TEST_CASE("a variant's image limit: refused with why, before it runs; no limit, every image") {
    Variant v;
    v.filter = "nlmeans";
    v.name = "cuda_auto_x";
    CHECK(v.unsupported_reason({{"search", 10}}, 8192, 8192, 1).empty());
    v.image_limit = [](int w, int h, int, const ParamValues &p) {
        return 1LL * w * h * p.at("search") > 1000 ? std::string("too large") : std::string();
    };
    CHECK(v.unsupported_reason({{"search", 10}}, 10, 10, 1).empty());
    CHECK(v.unsupported_reason({{"search", 10}}, 11, 10, 1) == "nlmeans/cuda_auto_x: too large");
    CHECK(v.unsupported_reason({{"search", 10}}).empty());  // the parameters alone: no image to refuse
}

TEST_CASE("the aligned class: spelled once, with_exact_shapes takes it apart") {
    CHECK(read_build_shape("aligned") == kAlignedClass);
    CHECK(read_build_shape("1920x1080") == ImageShape{1920, 1080});
    CHECK(!read_build_shape("8192"));  // a build names both sides
    CHECK(!read_shape("aligned"));     // not an image's size
    CHECK(shape_text(kAlignedClass) == "aligned");
    CHECK(in_aligned_class(1920, {1920, 1920 * 1080}));
    CHECK(!in_aligned_class(1920, {1984 + 16}));
    CHECK(!in_aligned_class(1000, {1024}));
    Variant v;
    v.kind = Kind::tvm;
    const Variant shaped = with_exact_shapes(v, {{1920, 1080}, kAlignedClass});
    CHECK(shaped.aligned_path);
    CHECK(shaped.exact_shapes == std::vector<ImageShape>{{1920, 1080}});
}

TEST_CASE("image shapes: one spelling, WIDTHxHEIGHT or a square's side") {
    CHECK(read_shape("3840x2160") == ImageShape{3840, 2160});
    CHECK(read_shape("8192") == ImageShape{8192, 8192});
    CHECK(read_shape("1x1") == ImageShape{1, 1});
    for (const char *bad : {"", "x", "3840x", "x2160", "0x5", "5x0", "-3x4", "3840x2160x3", "3840X2160", "65537x1",
                            "12ax4", " 12x4"})
        CHECK_MESSAGE(!read_shape(bad), bad);
    CHECK(shape_text({4096, 2304}) == "4096x2304");
}
