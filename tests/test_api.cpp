// The public API (libfilterlab.so, include/filterlab/) as a user calls it:
// every layout it promises, every variant it holds, against the reference;
// every failure an Outcome, never an abort. `--cuda` runs the device-memory
// cases (exit 77 without a GPU, which CTest reports as skipped).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "filterlab/filterlab.h"
#include "filterlab/filterlab_c.h"
#include "error.h"
#include "filters.h"
#include "image_io.h"
#include "noise.h"
#include "variant_params.h"

namespace fl = filterlab;

namespace {

bool cuda_cases = false;
constexpr uint8_t kPoison = 0xA5;

// A user's image: `layout`, rows padded by `pad` bytes (poisoned), in host memory.
struct UserImage {
    std::vector<uint8_t> bytes;
    fl::ImageRef ref;
    UserImage(int w, int h, int c, fl::Layout layout, int pad) {
        const int row = (layout == fl::Layout::interleaved ? w * c : w) + pad;
        bytes.assign(static_cast<std::size_t>(row) * h * (layout == fl::Layout::planar ? c : 1), kPoison);
        ref = {bytes.data(), w, h, c, row, layout};
    }
    uint8_t &at(int x, int y, int c) {
        if (ref.layout == fl::Layout::interleaved) return bytes[y * ref.row_pitch + x * ref.channels + c];
        return bytes[(c * ref.height + y) * ref.row_pitch + x];
    }
    void fill(const fl::Image &image) {
        for (int c = 0; c < ref.channels; c++)
            for (int y = 0; y < ref.height; y++)
                for (int x = 0; x < ref.width; x++) at(x, y, c) = image.at(x, y, c);
    }
    fl::Image image() {
        fl::Image out(ref.width, ref.height, ref.channels);
        for (int c = 0; c < ref.channels; c++)
            for (int y = 0; y < ref.height; y++)
                for (int x = 0; x < ref.width; x++) out.at(x, y, c) = at(x, y, c);
        return out;
    }
    bool padding_untouched() {
        const int row = ref.layout == fl::Layout::interleaved ? ref.width * ref.channels : ref.width;
        for (std::size_t i = 0; i < bytes.size(); i++)
            if (static_cast<int>(i % ref.row_pitch) >= row && bytes[i] != kPoison) return false;
        return true;
    }
};

// Runs `filter` through the API on a random image and compares with the reference.
void check_filter(const std::string &filter, int w, int h, int c, fl::Layout layout, int pad,
                  const fl::Options &options = {}) {
    CAPTURE(filter);
    CAPTURE(options.variant);
    CAPTURE(w);
    CAPTURE(h);
    CAPTURE(c);
    const fl::FilterInfo &info = fl::filter_info(filter);
    const fl::Image input = fl::random_image(w, h, c, 7);
    const auto [ow, oh] = info.output_size(w, h);
    UserImage in(w, h, c, layout, pad), out(ow, oh, c, layout, pad);
    in.fill(input);
    const fl::Outcome r = fl::run(filter, in.ref, out.ref, {}, options);
    REQUIRE_MESSAGE(r.ok, r.message);
    CHECK(fl::compare_to_reference(info, info.reference(input, info.defaults()), out.image()).equal);
    CHECK(out.padding_untouched());
}

}  // namespace

TEST_CASE("api: every filter, by its default variant, in every host layout") {
    for (const fl::FilterInfo &f : fl::all_filters()) {
        for (fl::Layout layout : {fl::Layout::planar, fl::Layout::interleaved}) {
            check_filter(f.name, 37, 23, 3, layout, 0);
            check_filter(f.name, 37, 23, 3, layout, 5);  // rows with padding
            check_filter(f.name, 2, 2, 1, layout, 3);
        }
        CHECK(!fl::default_variant(f.name, fl::Memory::host).empty());
    }
}

TEST_CASE("api: every CPU variant it holds, named") {
    int named = 0;
    for (const fl::VariantInfo &v : fl::variants()) {
        if (v.cuda) continue;
        fl::Options o;
        o.variant = v.name;
        check_filter(v.filter, 29, 31, 3, fl::Layout::interleaved, 3, o);
        named++;
    }
    CHECK(named >= 15);
}

TEST_CASE("api: the typed calls pass the contract's parameters") {
    const fl::Image input = fl::random_image(40, 30, 1, 3);
    UserImage in(40, 30, 1, fl::Layout::planar, 0), out(40, 30, 1, fl::Layout::planar, 0);
    in.fill(input);
    REQUIRE(fl::box(in.ref, out.ref, 4));
    CHECK(out.image() == fl::filter_info("box").reference(input, {{"radius", 4}}));
    REQUIRE(fl::median(in.ref, out.ref, 5));
    CHECK(out.image() == fl::filter_info("median").reference(input, {{"size", 5}}));
    REQUIRE(fl::gaussian(in.ref, out.ref, 2.5));
    CHECK(out.image() == fl::filter_info("gaussian").reference(input, {{"sigma", 2.5}}));
}

TEST_CASE("api: input and output may be the same image") {
    const fl::Image input = fl::random_image(31, 19, 3, 9);
    for (fl::Layout layout : {fl::Layout::planar, fl::Layout::interleaved}) {
        UserImage both(31, 19, 3, layout, 0);
        both.fill(input);
        REQUIRE(fl::median(both.ref, both.ref, 5));
        CHECK(both.image() == fl::filter_info("median").reference(input, {{"size", 5}}));
    }
}

TEST_CASE("api: failures are outcomes with a message, the output untouched") {
    UserImage in(16, 16, 1, fl::Layout::planar, 0), out(16, 16, 1, fl::Layout::planar, 0);
    auto fails_with = [&](const fl::Outcome &r, const std::string &words) {
        CHECK(!r.ok);
        CHECK_MESSAGE(r.message.find(words) != std::string::npos, r.message);
        CHECK(std::all_of(out.bytes.begin(), out.bytes.end(), [](uint8_t b) { return b == kPoison; }));
    };
    fails_with(fl::box(in.ref, out.ref, 16), "radius");
    fails_with(fl::run("blur", in.ref, out.ref), "unknown filter");
    fails_with(fl::run("box", in.ref, out.ref, {{"sigma", 1}}), "no parameter 'sigma'");
    fails_with(fl::box(in.ref, out.ref, 1, {"cpu_nonesuch"}), "cpu_nonesuch");
    UserImage small(8, 8, 1, fl::Layout::planar, 0);
    fails_with(fl::box(in.ref, small.ref, 1), "output must be 16x16");
    fl::ImageRef null_in = in.ref;
    null_in.data = nullptr;
    fails_with(fl::box(null_in, out.ref), "no data");
    fl::ImageRef narrow = in.ref;
    narrow.row_pitch = 8;
    fails_with(fl::box(narrow, out.ref), "row pitch");
    fl::ImageRef four = in.ref, four_out = out.ref;
    four.channels = four_out.channels = 4;
    four.height = four_out.height = 4;
    fails_with(fl::box(four, four_out), "channel count");  // the contract's images have 1 or 3
    fl::ImageRef not_device = in.ref;
    not_device.memory = fl::Memory::cuda_device;  // host memory said to be on the device
    fails_with(fl::box(not_device, out.ref), "not CUDA device memory");
    CHECK(fl::default_variant("blur", fl::Memory::host).empty());
    for (const fl::VariantInfo &v : fl::variants()) CHECK(v.name.rfind("npp_", 0) != 0);  // peers are not in it
}

// A PGM/PPM of `image` at `path`, as a user's file.
void write_pnm(const std::string &path, const fl::Image &image) {
    std::FILE *file = std::fopen(path.c_str(), "wb");
    REQUIRE(file);
    std::fprintf(file, "P%c\n%d %d\n255\n", image.channels() == 1 ? '5' : '6', image.width(), image.height());
    const std::vector<uint8_t> samples = fl::to_interleaved(image);
    std::fwrite(samples.data(), 1, samples.size(), file);
    std::fclose(file);
}

TEST_CASE("api: run_file streams a PGM/PPM into a PGM/PPM, or fails leaving nothing") {
    const std::string folder = std::filesystem::temp_directory_path() / ("filterlab_api_" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    for (const std::string filter : {"box", "maxpool", "gaussian_maxpool"})
        for (int c : {1, 3}) {
            CAPTURE(filter);
            CAPTURE(c);
            const fl::FilterInfo &info = fl::filter_info(filter);
            const fl::Image input = fl::random_image(301, 77, c, 11);
            const std::string in = folder + "/in" + (c == 1 ? ".pgm" : ".ppm"), out = folder + "/out.pnm";
            write_pnm(in, input);
            fl::Options options;
            options.variant = "reference";
            const fl::Outcome r = fl::run_file(filter, in, out, {}, options);
            REQUIRE_MESSAGE(r.ok, r.message);
            const fl::Image output = fl::read_image(out);
            CHECK(output == info.reference(input, info.defaults()));
        }
    // Failures: an outcome with the reason, no output file and no temporary left.
    write_pnm(folder + "/gray.pgm", fl::random_image(40, 30, 1, 3));
    std::filesystem::resize_file(folder + "/gray.pgm", 200);
    const std::vector<std::pair<std::string, std::string>> failures{
        {folder + "/gray.pgm", "truncated"}, {folder + "/missing.pgm", "cannot open"}};
    for (const auto &[input, why] : failures) {
        const fl::Outcome r = fl::run_file("box", input, folder + "/never.pgm");
        CHECK_FALSE(r.ok);
        CHECK_MESSAGE(r.message.find(why) != std::string::npos, r.message);
    }
    write_pnm(folder + "/ok.pgm", fl::random_image(40, 30, 1, 3));
    CHECK_FALSE(fl::run_file("box", folder + "/ok.pgm", folder + "/no/such/never.pgm").ok);
    CHECK_FALSE(fl::run_file("box", folder + "/ok.pgm", folder + "/never.bmp").ok);
    // A PNG output, written row by row.
    REQUIRE(fl::run_file("box", folder + "/ok.pgm", folder + "/ok_out.png").ok);
    const fl::FilterInfo &box = fl::filter_info("box");
    CHECK(fl::read_image(folder + "/ok_out.png") == box.reference(fl::read_image(folder + "/ok.pgm"), box.defaults()));
    for (const auto &entry : std::filesystem::directory_iterator(folder)) {
        CHECK_MESSAGE(entry.path().filename().string().find("never") == std::string::npos, entry.path());
    }
    std::filesystem::remove_all(folder);
}

TEST_CASE("api: the C ABI") {
    const fl::Image input = fl::random_image(33, 17, 3, 5);
    UserImage in(33, 17, 3, fl::Layout::interleaved, 0), out(33, 17, 3, fl::Layout::interleaved, 0);
    in.fill(input);
    filterlab_image cin{in.bytes.data(), 33, 17, 3, 0, 1, 0, 0}, cout{out.bytes.data(), 33, 17, 3, 0, 1, 0, 0};
    char message[256] = "x";
    REQUIRE(filterlab_run("median", &cin, &cout, "size=5", nullptr, nullptr, message, sizeof message) == 0);
    CHECK(std::string(message).empty());
    CHECK(out.image() == fl::filter_info("median").reference(input, {{"size", 5}}));
    CHECK(filterlab_run("median", &cin, &cout, "size=4", nullptr, nullptr, message, sizeof message) != 0);
    CHECK(std::string(message).find("size") != std::string::npos);
    CHECK(filterlab_run("box", &cin, &cout, "radius", "", nullptr, message, 8) != 0);
    CHECK(std::strlen(message) == 7);  // truncated, terminated
    CHECK(filterlab_run(nullptr, &cin, &cout, nullptr, nullptr, nullptr, nullptr, 0) != 0);
    // The CLI's parser: what `filterlab run -p` refuses, the C ABI refuses too,
    // with the same words, and leaves the output unwritten.
    const std::vector<uint8_t> before = out.bytes;
    for (const char *bad : {"radius=0x2", "radius=1e0", "radius=2 radius=3", "radius=2.5", "radius=+2", "size=3",
                            "radius= 2", "radius=99"}) {
        CAPTURE(bad);
        CHECK(filterlab_run("box", &cin, &cout, bad, nullptr, nullptr, message, sizeof message) != 0);
        std::vector<std::string> items;
        std::istringstream words(bad);
        for (std::string w; words >> w;) items.push_back(w);
        std::string cli_words;
        try {
            fl::filter_info("box").parse_params(items);
        } catch (const fl::Error &e) {
            cli_words = e.what();
        }
        CHECK(!cli_words.empty());
        CHECK(std::string(message) == cli_words);
    }
    CHECK(out.bytes == before);
    CHECK(filterlab_run("box", &cin, &cout, " radius=2 ", nullptr, nullptr, message, sizeof message) == 0);
    CHECK(out.image() == fl::filter_info("box").reference(input, {{"radius", 2}}));
    CHECK(filterlab_run("gaussian", &cin, &cout, "sigma=1.5", nullptr, nullptr, message, sizeof message) == 0);
    CHECK(filterlab_run("gaussian", &cin, &cout, "sigma=1.5e0", nullptr, nullptr, message, sizeof message) != 0);
    CHECK(std::string(filterlab_version()).find(FILTERLAB_VERSION) == 0);
}

#include "test_api_cuda.h"

int main(int argc, char **argv) {
    doctest::Context context;
    context.applyCommandLine(argc, argv);
    bool lost_case = false;  // --cuda-lost: the one case that ruins the CUDA context, alone
    for (int i = 1; i < argc; i++) {
        cuda_cases = cuda_cases || std::string(argv[i]) == "--cuda";
        lost_case = lost_case || std::string(argv[i]) == "--cuda-lost";
    }
    if (cuda_cases || lost_case) {
        int devices = 0;
        if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 77;
        context.setOption("test-case", lost_case ? "gpu lost*" : "api cuda*");
    } else {
        context.setOption("test-case-exclude", "api cuda*,gpu lost*");
    }
    return context.run();
}
