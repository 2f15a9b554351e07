// Streaming in bands (runtime/stream): the plan's spans cover the output once
// with halos inside the image, and every variant of one backend, streamed in
// bands of 1, 3 and 17 rows and cut in column tiles, writes exactly what it
// writes for the whole image in one call — every output row, nothing else.
// Run with --backend=cpu or --backend=cuda; without a GPU the CUDA run exits
// 77, which CTest reports as skipped.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "band_plan.h"
#include "error.h"
#include "cuda_support.h"
#include "harness.h"
#include "noise.h"
#include "plugins.h"
#include "image_io.h"
#include "stream_files.h"
#include "streamed_run.h"

using namespace filterlab;

namespace {

Backend selected = Backend::cpu;

// An image in memory as interleaved rows, as a file holds them.
class MemoryRows : public stream::RowSource, public stream::RowSink {
public:
    MemoryRows(int width, int height, int channels, std::vector<uint8_t> bytes)
        : shape_{width, height, channels}, bytes_(std::move(bytes)) {}
    stream::FileShape shape() const override { return shape_; }
    void read_rows(int first, int count, uint8_t *to) const override {
        REQUIRE(first >= 0);
        REQUIRE(first + count <= shape_.height);
        std::memcpy(to, bytes_.data() + first * shape_.row_bytes(), count * shape_.row_bytes());
    }
    void write_rows(int first, int count, const uint8_t *from) const override {
        REQUIRE(first >= 0);
        REQUIRE(first + count <= shape_.height);
        std::memcpy(bytes_.data() + first * shape_.row_bytes(), from, count * shape_.row_bytes());
    }
    const std::vector<uint8_t> &bytes() const { return bytes_; }

private:
    stream::FileShape shape_;
    mutable std::vector<uint8_t> bytes_;
};

// Rows that fail once a row at or past `failing_row` is read or written.
class FailingRows : public MemoryRows {
public:
    FailingRows(int width, int height, int channels, int failing_row)
        : MemoryRows(width, height, channels, std::vector<uint8_t>(std::size_t(width) * height * channels, 7)),
          failing_row_(failing_row) {}
    void read_rows(int first, int count, uint8_t *to) const override {
        if (first + count > failing_row_) throw Error("reading failed on purpose");
        MemoryRows::read_rows(first, count, to);
    }
    void write_rows(int first, int count, const uint8_t *from) const override {
        if (first + count > failing_row_) throw Error("writing failed on purpose");
        MemoryRows::write_rows(first, count, from);
    }

private:
    int failing_row_;
};

// The variants a run of this suite takes: every one of the backend, not the
// peers (other libraries) nor a sweep's points (the same code as their schedule).
bool streamed_here(const Variant &v) {
    return v.backend == selected && v.kind != Kind::peer && v.name.find('[') == std::string::npos &&
           v.why_unavailable().empty();
}

// --one-per-filter (the sanitizer builds' run): the streaming code under test
// is the same for every variant of a backend, and every variant's own code is
// checked under the sanitizers by `variants_cpu_<filter>`; one Halide variant a filter
// keeps the run short.
bool one_per_filter = false;

// Whether `v` is the variant --one-per-filter takes for its filter: its first
// Halide one (the filter's other variants, reference and handwritten too, are
// left out); every variant of a filter without a streamed Halide variant.
bool filter_representative(const Variant &v) {
    for (const Variant &other : all_variants()) {
        if (streamed_here(other) && other.filter == v.filter && other.kind == Kind::halide) return &other == &v;
    }
    return true;
}

// The first variant of `filter` this run streams; nullptr when none.
const Variant *first_streamed(const std::string &filter) {
    for (const Variant &v : all_variants()) {
        if (streamed_here(v) && v.filter == filter) return &v;
    }
    return nullptr;
}

// One variant on one image: whole, then streamed under each limit (a CUDA
// variant's bands over `gpus` devices).
void check_streams(const Variant &v, const ParamValues &params, const Image &input, int gpus = 1) {
    const Image whole = run_variant(v, input, params);
    const MemoryRows source(input.width(), input.height(), input.channels(), to_interleaved(input));
    // A band recomputes its halo rows: bands of one row cost a slow reference
    // (NL-means') 2 x reach + 1 times the image; such a reference takes 17.
    const bool slow = v.kind == Kind::reference && reference_work_per_sample(filter_info(v.filter), params) > 1000;
    for (int band_rows : slow ? std::vector<int>{17} : std::vector<int>{1, 3, 17})
        for (int tile_width : {0, 160}) {
            MemoryRows sink(whole.width(), whole.height(), whole.channels(),
                            std::vector<uint8_t>(whole.size(), 0xA5));
            stream::StreamOptions options;
            options.limits.band_rows = band_rows;
            options.limits.tile_width = tile_width;
            options.slots = 2;
            options.io_threads = 2;
            options.gpus = gpus;
            const stream::StreamTimes times = stream::run_streamed(v, source, sink, params, options);
            INFO(v.filter, "/", v.name, " ", format_params(params), " ", input.width(), "x", input.height(), "x",
                 input.channels(), " bands of ", band_rows, " rows, tiles of ", tile_width, " columns on ", gpus,
                 " GPUs");
            CHECK(times.gpus == gpus);
            CHECK(times.bands == (whole.height() + band_rows - 1) / band_rows);
            CHECK(sink.bytes() == to_interleaved(whole));
        }
}

}  // namespace

TEST_CASE("a plan's spans cover the output once, their halos inside the image, tiles aligned") {
    for (int size : {1, 2, 7, 64, 129, 1000})
        for (int scale : {1, 2})
            for (int halo : {0, 2, 14})
                for (int per_span : {1, 5, 64})
                    for (int align : {1, 64}) {
                        const int out = size / scale;
                        if (out == 0) continue;
                        const auto spans = stream::split_spans(size, 0, out, scale, halo, per_span, align);
                        int next = 0;
                        for (const stream::Span &s : spans) {
                            CHECK(s.out_first == next);
                            CHECK(s.out_count >= 1);
                            CHECK(s.out_count <= per_span);
                            CHECK(s.in_first % std::max(align, scale) == 0);
                            CHECK(s.in_first <= std::max(0, s.out_first * scale - halo));
                            CHECK(s.in_end == std::min(size, (s.out_first + s.out_count) * scale + halo));
                            next += s.out_count;
                        }
                        CHECK(next == out);
                    }
}

TEST_CASE("every variant of the backend streams byte-identical to one whole call") {
    int variants = 0;
    for (const Variant &v : all_variants()) {
        if (!streamed_here(v) || (one_per_filter && !filter_representative(v))) continue;
        const FilterInfo &filter = filter_info(v.filter);
        std::vector<ParamValues> sets{filter.defaults()};
        for (const ParamValues &p : filter.quick_check_params) {
            ParamValues merged = filter.defaults();
            for (const auto &[name, value] : p) merged[name] = value;
            if (v.unsupported_reason(merged).empty()) sets.push_back(merged);
        }
        for (const ParamValues &params : sets) {
            if (!v.unsupported_reason(params).empty()) continue;
            // 203 columns are two tiles of at most 160; 67x41 is many bands
            // (at the defaults only: the other sets run the same code).
            for (const auto &[w, h] : {std::pair{1, 1}, {2, 2}, {5, 3}, {67, 41}, {203, 7}, {203, 3}}) {
                if (w < filter.min_side || h < filter.min_side || (w > 5 && params != sets.front())) continue;
                for (int channels : {1, 3}) check_streams(v, params, random_image(w, h, channels, w * 131 + h));
            }
        }
        variants++;
    }
    CHECK(variants > 0);
}

// Band b on GPU b mod N: every CUDA variant's bands over every visible GPU
// (on a machine with two or more), each device's module and memory its own.
// With one GPU, or for a CPU variant, asking for two is refused.
TEST_CASE("bands spread over several GPUs write what one call writes") {
    const int gpus = selected == Backend::cuda ? cuda::device_count() : 0;
    const Variant *v = first_streamed("box");
    REQUIRE(v);
    const MemoryRows rows(8, 8, 1, std::vector<uint8_t>(64, 1));
    MemoryRows out(8, 8, 1, std::vector<uint8_t>(64, 0));
    stream::StreamOptions two;
    two.gpus = 2;
    if (gpus < 2) {
        CHECK_THROWS_AS(stream::run_streamed(*v, rows, out, filter_info("box").defaults(), two), Error);
        MESSAGE("fewer than two GPUs visible: bands over several are checked only to be refused");
        return;
    }
    int variants = 0;
    for (const Variant &each : all_variants()) {
        if (!streamed_here(each)) continue;
        const ParamValues params = filter_info(each.filter).defaults();
        if (!each.unsupported_reason(params).empty()) continue;
        for (int channels : {1, 3}) check_streams(each, params, random_image(67, 41, channels, 67 + channels), gpus);
        variants++;
    }
    CHECK(variants > 0);
}

// A PNG read row by row (stream::PngRowReader): each band's halo rows come
// from the rows kept of the band before; gray and RGB, bands of 1 to 17 rows.
TEST_CASE("a PNG streamed row by row gives what its whole image gives") {
    const Variant *v = first_streamed("median");
    REQUIRE(v);
    ParamValues params = filter_info("median").defaults();
    params["size"] = 5;
    if (!v->unsupported_reason(params).empty()) params = filter_info("median").defaults();
    for (int channels : {1, 3}) {
        const Image input = random_image(45, 38, channels, 17 + channels);
        const std::string path = (std::filesystem::temp_directory_path() /
                                  ("filterlab_streamed_" + std::to_string(::getpid()) + ".png")).string();
        write_image(path, input);
        const std::vector<uint8_t> expected = to_interleaved(run_variant(*v, input, params));
        for (int band_rows : {1, 3, 17}) {
            const stream::InputFile file(path);
            MemoryRows sink(45, 38, channels, std::vector<uint8_t>(expected.size(), 0xA5));
            stream::StreamOptions options;
            options.limits.band_rows = band_rows;
            stream::run_streamed(*v, file.source(), sink, params, options);
            INFO(v->name, " ", channels, " channels, bands of ", band_rows);
            CHECK(sink.bytes() == expected);
        }
        std::filesystem::remove(path);
    }
}

// Pooling never reads an odd image's last row: the reader still decodes it
// and the file's end, so a damaged tail fails as it fails a whole read.
TEST_CASE("a PNG's tail no band reads is still checked") {
    const Variant *v = first_streamed("maxpool");
    REQUIRE(v);
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("filterlab_tail_" + std::to_string(::getpid()) + ".png")).string();
    write_image(path, random_image(64, 63, 1, 4));
    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekg(0, std::ios::end);
        const auto size = static_cast<std::streamoff>(file.tellg());
        file.seekp(size - 12 - 4 - 3);  // in the last image data, before its CRC and IEND
        file.put('\x5a');
    }
    const ParamValues params = filter_info("maxpool").defaults();
    const stream::InputFile input(path);
    MemoryRows sink(32, 31, 1, std::vector<uint8_t>(32 * 31, 0));
    CHECK_THROWS_AS(stream::run_streamed(*v, input.source(), sink, params), Error);
    CHECK_THROWS_AS(read_image(path), Error);
    std::filesystem::remove(path);
}

// A failure in any stage ends the run with its error. The first bands are
// read while the worker is made (streamed_run.cpp): a failure there too; when
// the worker fails as well (a CPU variant asked for two GPUs), with the worker's.
TEST_CASE("a stage failing stops the run with its error, every thread ended") {
    const Variant *v = first_streamed("box");
    REQUIRE(v);
    const ParamValues params = filter_info("box").defaults();
    stream::StreamOptions options;
    options.limits.band_rows = 4;
    const FailingRows failing(64, 40, 3, 30);
    const MemoryRows fine(64, 40, 3, std::vector<uint8_t>(64 * 40 * 3, 9));
    MemoryRows out(64, 40, 3, std::vector<uint8_t>(64 * 40 * 3, 0));
    CHECK_THROWS_WITH(stream::run_streamed(*v, failing, out, params, options), "reading failed on purpose");
    CHECK_THROWS_WITH(stream::run_streamed(*v, fine, failing, params, options), "writing failed on purpose");
    const FailingRows first_band(64, 40, 3, 1);
    CHECK_THROWS_WITH(stream::run_streamed(*v, first_band, out, params, options), "reading failed on purpose");
    const Variant *cpu = nullptr;
    for (const Variant &each : all_variants()) {
        if (!cpu && each.filter == "box" && each.backend == Backend::cpu && each.kind != Kind::peer) cpu = &each;
    }
    REQUIRE(cpu);
    options.gpus = 2;
    CHECK_THROWS_WITH(stream::run_streamed(*cpu, first_band, out, params, options),
                      doctest::Contains("only a CUDA variant's bands go to GPUs"));
}

TEST_CASE("a share of the rows (one MPI rank's) writes those rows and no other") {
    const Variant *v = first_streamed("gaussian");
    REQUIRE(v);
    const ParamValues params = filter_info("gaussian").defaults();
    const Image input = random_image(53, 61, 3, 5);
    const Image whole = run_variant(*v, input, params);
    const MemoryRows source(53, 61, 3, to_interleaved(input));
    for (const auto &[first, end] : {std::pair{0, 1}, {17, 40}, {60, 61}}) {
        MemoryRows sink(53, 61, 3, std::vector<uint8_t>(whole.size(), 0xA5));
        stream::StreamOptions options;
        options.limits.band_rows = 5;
        options.limits.out_first = first;
        options.limits.out_end = end;
        stream::run_streamed(*v, source, sink, params, options);
        const std::vector<uint8_t> expected = to_interleaved(whole);
        const std::size_t row = 53 * 3;
        for (int y = 0; y < 61; y++) {
            const bool mine = y >= first && y < end;
            const auto got = std::vector<uint8_t>(sink.bytes().begin() + y * row, sink.bytes().begin() + (y + 1) * row);
            INFO("rows ", first, "..", end, ", row ", y);
            CHECK(got == (mine ? std::vector<uint8_t>(expected.begin() + y * row, expected.begin() + (y + 1) * row)
                               : std::vector<uint8_t>(row, 0xA5)));
        }
    }
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--backend=cuda") == 0) selected = Backend::cuda;
        if (std::strcmp(argv[i], "--one-per-filter") == 0) one_per_filter = true;
    }
    load_plugins();
    if (selected == Backend::cuda && !cuda::gpu_info().available) {
        std::cout << "SKIPPED: CUDA variants not streamed: no GPU (" << cuda::gpu_info().why_not << ")\n";
        return 77;
    }
    doctest::Context context(argc, argv);
    return context.run();
}
