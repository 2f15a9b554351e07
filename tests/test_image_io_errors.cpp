// Image files that must each end in an Error (never a crash) and never leave
// a partial output behind: a corpus of malformed files, failed writes, and
// PNGs that promise more memory than the file holds; and valid PNGs at the
// edge of those bounds, which still decode. Round trips and conversions:
// test_image_io.cpp.
#include <doctest/doctest.h>

#include <png.h>
#include <zlib.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <csignal>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "error.h"
#include "image_io.h"
#include "image_io_test_helpers.h"
#include "noise.h"

using namespace filterlab;
namespace fs = std::filesystem;

namespace {

using namespace image_io_test;

void expect_error(const fs::path &p, const std::string &fragment) {
    INFO("file: ", p.string(), " expecting: ", fragment);
    try {
        read_image(p.string());
        FAIL("no error");
    } catch (const Error &e) {
        CHECK(std::string(e.what()).find(fragment) != std::string::npos);
        CHECK(std::string(e.what()).find('\n') == std::string::npos);
    }
}

// BMP files cut short, of an unsupported depth or compression, or too wide.
void check_malformed_bmp(const fs::path &d) {
    write_image((d / "good.bmp").string(), random_image(5, 3, 3, 2));
    const std::vector<uint8_t> bmp = slurp(d / "good.bmp");
    spit(d / "cut.bmp", std::vector<uint8_t>(bmp.begin(), bmp.end() - 10));
    expect_error(d / "cut.bmp", "truncated");
    spit(d / "header.bmp", std::vector<uint8_t>(bmp.begin(), bmp.begin() + 30));
    expect_error(d / "header.bmp", "truncated");
    std::vector<uint8_t> bmp32 = bmp;
    bmp32[28] = 32;
    spit(d / "32.bmp", bmp32);
    expect_error(d / "32.bmp", "32 bits per pixel");
    std::vector<uint8_t> rle = bmp;
    rle[30] = 1;
    spit(d / "rle.bmp", rle);
    expect_error(d / "rle.bmp", "compressed");
    std::vector<uint8_t> wide = bmp;
    wide[21] = 0x7f;  // width ~ 2^31
    spit(d / "wide.bmp", wide);
    expect_error(d / "wide.bmp", "too large");
}

}  // namespace

TEST_CASE("malformed files end in a clear error") {
    const fs::path d = temp_dir();
    write_image((d / "good.png").string(), random_image(40, 30, 3, 9));
    const std::vector<uint8_t> png = slurp(d / "good.png");

    spit(d / "empty.png", std::vector<uint8_t>{});
    expect_error(d / "empty.png", "empty file");
    expect_error(d / "missing.png", "cannot open");
    expect_error(d, "is a directory");
    ::unlink((d / "fifo.png").c_str());
    REQUIRE(::mkfifo((d / "fifo.png").c_str(), 0600) == 0);
    expect_error(d / "fifo.png", "not a regular file");
    spit(d / "text.png", std::string("hello, I am not an image\n"));
    expect_error(d / "text.png", "unsupported format");
    spit(d / "ascii.pgm", std::string("P2\n2 2\n255\n1 2 3 4\n"));
    expect_error(d / "ascii.pgm", "unsupported format");

    for (std::size_t cut : {std::size_t(8), std::size_t(20), std::size_t(40), png.size() / 2, png.size() - 13}) {
        spit(d / "cut.png", std::vector<uint8_t>(png.begin(), png.begin() + cut));
        expect_error(d / "cut.png", "PNG");
    }
    std::vector<uint8_t> flipped = png;
    flipped[png.size() / 2] ^= 0x5a;  // inside the image data: a CRC or zlib error
    spit(d / "flipped.png", flipped);
    expect_error(d / "flipped.png", "corrupt PNG");

    // An IHDR claiming 100000 x 100000, with a valid CRC: refused before any allocation.
    std::vector<uint8_t> huge = png;
    for (int i = 0; i < 2; i++) {
        const uint32_t side = 100000;
        for (int b = 0; b < 4; b++) huge[16 + 4 * i + b] = static_cast<uint8_t>(side >> (24 - 8 * b));
    }
    const uint32_t crc = crc32(0, huge.data() + 12, 17);
    for (int b = 0; b < 4; b++) huge[29 + b] = static_cast<uint8_t>(crc >> (24 - 8 * b));
    spit(d / "huge.png", huge);
    expect_error(d / "huge.png", "image too large");

    spit(d / "cut.pgm", std::string("P5\n4 4\n255\nabc"));
    expect_error(d / "cut.pgm", "truncated");
    spit(d / "wide.pgm", std::string("P5\n4 4\n65535\n"));
    expect_error(d / "wide.pgm", "maxval 65535");
    spit(d / "nosize.pgm", std::string("P5\n# a comment\n4\n"));
    expect_error(d / "nosize.pgm", "height missing");
    spit(d / "absurd.ppm", std::string("P6\n1000000000 1000000000\n255\n"));
    expect_error(d / "absurd.ppm", "too large");
    spit(d / "zero.pgm", std::string("P5\n0 5\n255\n"));
    expect_error(d / "zero.pgm", "empty image");

    check_malformed_bmp(d);
}

TEST_CASE("a failed write leaves no file, and never a partial one") {
    const fs::path d = temp_dir() / "writes";
    fs::create_directories(d);
    const Image rgb = random_image(8, 8, 3, 1);
    CHECK_THROWS_AS(write_image((d / "x.jpg").string(), rgb), Error);
    CHECK_THROWS_AS(write_image((d / "no_such_dir" / "x.png").string(), rgb), Error);
    // Fails in the middle of encoding (RGB cannot go to PGM): the old file stays as it was.
    spit(d / "keep.pgm", std::string("old contents"));
    CHECK_THROWS_AS(write_image((d / "keep.pgm").string(), rgb), Error);
    CHECK(slurp(d / "keep.pgm") == std::vector<uint8_t>{'o', 'l', 'd', ' ', 'c', 'o', 'n', 't', 'e', 'n', 't', 's'});
    int files = 0;
    for ([[maybe_unused]] auto &entry : fs::directory_iterator(d)) files++;
    CHECK(files == 1);  // no temporary left behind

    // A write that fails halfway (the file size limit is hit after 4 KiB): in a
    // child process, so the limit stays there. Nothing is left, not even the
    // temporary.
    const fs::path big = d / "big.pgm";
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::signal(SIGXFSZ, SIG_IGN);  // the write fails with EFBIG instead of killing us
        rlimit limit{4096, 4096};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        try {
            write_image(big.string(), random_image(200, 200, 1, 5));
            ::_exit(1);  // it should not have succeeded
        } catch (const Error &e) {
            ::_exit(std::string(e.what()).find("write failed") != std::string::npos ? 0 : 2);
        }
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(!fs::exists(big));
    files = 0;
    for ([[maybe_unused]] auto &entry : fs::directory_iterator(d)) files++;
    CHECK(files == 1);
}

namespace {

void put_be32(std::vector<uint8_t> &out, uint32_t v) {
    for (int b = 3; b >= 0; b--) out.push_back(static_cast<uint8_t>(v >> (8 * b)));
}

// A PNG chunk: length, type, data, CRC. `claimed` overrides the length field.
void put_chunk(std::vector<uint8_t> &png, const char *type, const std::vector<uint8_t> &data,
               std::optional<uint32_t> claimed = std::nullopt) {
    put_be32(png, claimed.value_or(static_cast<uint32_t>(data.size())));
    std::vector<uint8_t> body(type, type + 4);
    body.insert(body.end(), data.begin(), data.end());
    png.insert(png.end(), body.begin(), body.end());
    put_be32(png, static_cast<uint32_t>(crc32(0, body.data(), static_cast<uInt>(body.size()))));
}

std::vector<uint8_t> png_start(uint32_t width, uint32_t height) {
    std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<uint8_t> ihdr;
    put_be32(ihdr, width);
    put_be32(ihdr, height);
    ihdr.insert(ihdr.end(), {8, PNG_COLOR_TYPE_GRAY, 0, 0, 0});
    put_chunk(png, "IHDR", ihdr);
    return png;
}

// Runs `work` in a child process whose address space may grow by at most
// `headroom` bytes: an allocation beyond it fails there, not here. The
// child's exit status: 0 when `work` returned true.
int with_memory_limit(std::size_t headroom, const std::function<bool()> &work) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        std::ifstream statm("/proc/self/statm");
        std::size_t pages = 0;
        statm >> pages;
        const rlim_t limit = pages * ::sysconf(_SC_PAGESIZE) + headroom;
        rlimit r{limit, limit};
        ::setrlimit(RLIMIT_AS, &r);
        try {
            ::_exit(work() ? 0 : 1);
        } catch (const std::bad_alloc &) {
            ::_exit(3);
        } catch (...) {
            ::_exit(4);
        }
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;  // its shadow memory makes RLIMIT_AS meaningless
#elif defined(__has_feature)
constexpr bool kAddressSanitizer = __has_feature(address_sanitizer);
#else
constexpr bool kAddressSanitizer = false;
#endif

}  // namespace

TEST_CASE("memory is bounded by the file: PNG headers and chunks that promise more than the file holds") {
    const fs::path d = temp_dir();
    // 41 bytes: an ancillary chunk claiming ~2 GB that the file does not have.
    for (const char *type : {"tEXt", "sPLT", "iCCP", "IDAT"}) {
        std::vector<uint8_t> bomb = png_start(1, 1);
        put_be32(bomb, 0x7fff0000u);
        bomb.insert(bomb.end(), type, type + 4);
        REQUIRE(bomb.size() == 41);
        spit(d / "bomb.png", bomb);
        expect_error(d / "bomb.png", std::string("PNG chunk '") + type + "' claims 2147418112 bytes, 0 remain");
    }
    // 57 bytes: an IHDR of 65536 x 16384 and no image data to fill it.
    std::vector<uint8_t> empty_giant = png_start(65536, 16384);
    put_chunk(empty_giant, "IEND", {});
    spit(d / "giant.png", empty_giant);
    expect_error(d / "giant.png", "0 bytes of image data cannot hold 65536x16384");
    // Wider than the limit: said so, not "Invalid IHDR data".
    std::vector<uint8_t> too_wide = png_start(65537, 1);
    put_chunk(too_wide, "IEND", {});
    spit(d / "wide.png", too_wide);
    expect_error(d / "wide.png", "image too large: 65537x1");
    std::vector<uint8_t> no_header = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    put_chunk(no_header, "IEND", {});
    spit(d / "noheader.png", no_header);
    expect_error(d / "noheader.png", "no image header");

    if (kAddressSanitizer) return;
    // The same files under a 64 MiB address-space allowance: each refused
    // with its error, never an allocation failure.
    for (const char *name : {"bomb.png", "giant.png", "wide.png"}) {
        CAPTURE(name);
        CHECK(with_memory_limit(64u << 20, [&] {
                  try {
                      read_image((d / name).string());
                  } catch (const Error &) {
                      return true;
                  }
                  return false;
              }) == 0);
    }
}

namespace {

// A gray PNG of zeros at compression level 9, optionally with a zTXt chunk of
// `text_bytes` letters.
void write_zeros_png(const fs::path &p, int side, std::size_t text_bytes) {
    FILE *f = std::fopen(p.c_str(), "wb");
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    png_init_io(png, f);
    png_set_compression_level(png, 9);
    png_set_filter(png, 0, PNG_FILTER_NONE);
    png_set_IHDR(png, info, side, side, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    std::string text(text_bytes, 'a');
    png_text note{};
    note.compression = PNG_TEXT_COMPRESSION_zTXt;
    note.key = const_cast<char *>("Comment");
    note.text = text.data();
    note.text_length = text.size();
    if (text_bytes) png_set_text(png, info, &note, 1);
    png_write_info(png, info);
    std::vector<uint8_t> row(side, 0);
    for (int y = 0; y < side; y++) png_write_row(png, row.data());
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    std::fclose(f);
}

}  // namespace

TEST_CASE("valid PNGs at the edge of the bounds still decode: deflate's best ratio, a compressed text chunk") {
    const fs::path d = temp_dir();
    // 8192 x 8192 zeros at level 9 compress about 1030:1, near deflate's limit.
    write_zeros_png(d / "zeros.png", 8192, 0);
    CHECK(fs::file_size(d / "zeros.png") * 1000 < 8192ull * 8192);
    const Image zeros = read_image((d / "zeros.png").string());
    CHECK(zeros.width() == 8192);
    CHECK(zeros.height() == 8192);
    CHECK(std::all_of(zeros.samples().begin(), zeros.samples().end(), [](uint8_t v) { return v == 0; }));
    fs::remove(d / "zeros.png");

    // A 64 MiB zTXt (64 KiB compressed): dropped unread, never inflated.
    write_zeros_png(d / "text.png", 16, 64u << 20);
    CHECK(read_image((d / "text.png").string()).width() == 16);
    if (!kAddressSanitizer) {
        CHECK(with_memory_limit(16u << 20, [&] { return read_image((d / "text.png").string()).width() == 16; }) == 0);
    }
}
