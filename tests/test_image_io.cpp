// Image files: round trips in every format, the PNG conversions, and a corpus
// of malformed files that must each end in an Error (never a crash) and never
// leave a partial output behind.
#include <doctest/doctest.h>

#include <png.h>
#include <zlib.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <csignal>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>

#include "error.h"
#include "image_io.h"
#include "noise.h"
#include "test_paths.h"

using namespace filterlab;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir() {
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("filterlab_io_" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

std::vector<uint8_t> slurp(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const fs::path &p, const std::vector<uint8_t> &bytes) {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void spit(const fs::path &p, const std::string &text) { spit(p, std::vector<uint8_t>(text.begin(), text.end())); }

// Writes a PNG of any libpng layout, for the conversion tests.
void write_png_raw(const fs::path &p, int w, int h, int color, int depth, const std::vector<uint8_t> &rows,
                   bool palette = false) {
    FILE *f = std::fopen(p.c_str(), "wb");
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    png_init_io(png, f);
    png_set_IHDR(png, info, w, h, depth, color, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_color colors[2] = {{10, 20, 30}, {200, 100, 50}};
    if (palette) png_set_PLTE(png, info, colors, 2);
    png_write_info(png, info);
    const std::size_t row_bytes = rows.size() / h;
    for (int y = 0; y < h; y++) png_write_row(png, const_cast<uint8_t *>(rows.data() + y * row_bytes));
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    std::fclose(f);
}

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

}  // namespace

Image round_trip(const fs::path &p, const Image &image) {
    write_image(p.string(), image);
    return read_image(p.string());
}

TEST_CASE("round trips: PNG, PGM, PPM, BMP, gray and RGB, odd sizes (BMP row padding)") {
    for (auto [w, h] : {std::pair{1, 1}, {3, 2}, {5, 7}, {2, 9}, {64, 33}}) {
        CAPTURE(w);
        CAPTURE(h);
        const Image gray = random_image(w, h, 1, w * 100 + h);
        const Image rgb = random_image(w, h, 3, w * 100 + h + 1);
        CHECK(round_trip(temp_dir() / "g.png", gray) == gray);
        CHECK(round_trip(temp_dir() / "c.png", rgb) == rgb);
        CHECK(round_trip(temp_dir() / "g.pgm", gray) == gray);
        CHECK(round_trip(temp_dir() / "c.ppm", rgb) == rgb);
        CHECK(round_trip(temp_dir() / "g.pnm", gray) == gray);
        CHECK(round_trip(temp_dir() / "c.bmp", rgb) == rgb);
        // Gray BMP: stored as 24-bit, read back as three equal channels.
        const Image back = round_trip(temp_dir() / "g.bmp", gray);
        REQUIRE(back.channels() == 3);
        for (int c = 0; c < 3; c++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) CHECK(back.at(x, y, c) == gray.at(x, y, 0));
    }
}

TEST_CASE("layouts: interleaved <-> planar") {
    const uint8_t interleaved[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // 2x2 RGB
    const Image image = from_interleaved(interleaved, 2, 2, 3);
    CHECK(image.at(0, 0, 0) == 1);
    CHECK(image.at(1, 0, 2) == 6);
    CHECK(image.at(0, 1, 1) == 8);
    CHECK(image.data()[4] == 2);  // planar: the green plane starts at 4
    CHECK(to_interleaved(image) == std::vector<uint8_t>(interleaved, interleaved + 12));
}

TEST_CASE("BMP: top-down files and the file's byte order") {
    // A 2x2 top-down 24-bit BMP built by hand: rows of 6 bytes padded to 8.
    std::vector<uint8_t> bmp = {'B', 'M', 70, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 2, 0, 0, 0,
                                0xfe, 0xff, 0xff, 0xff, 1, 0, 24, 0, 0, 0, 0, 0, 16, 0, 0, 0};
    bmp.resize(54, 0);
    const uint8_t rows[] = {1, 2, 3, 4, 5, 6, 0, 0, 7, 8, 9, 10, 11, 12, 0, 0};  // B, G, R per pixel
    bmp.insert(bmp.end(), rows, rows + 16);
    spit(temp_dir() / "topdown.bmp", bmp);
    const Image image = read_image((temp_dir() / "topdown.bmp").string());
    REQUIRE(image.width() == 2);
    REQUIRE(image.height() == 2);
    CHECK(image.at(0, 0, 0) == 3);  // first file row is the top row; R is the third byte
    CHECK(image.at(0, 0, 2) == 1);
    CHECK(image.at(1, 1, 0) == 12);
}

TEST_CASE("PNG conversions are made and reported") {
    std::vector<std::string> notices;
    // 16-bit gray: the high byte is kept.
    write_png_raw(temp_dir() / "g16.png", 2, 1, PNG_COLOR_TYPE_GRAY, 16, {0x12, 0x34, 0xab, 0xcd});
    Image g16 = read_image((temp_dir() / "g16.png").string(), &notices);
    CHECK(g16.at(0, 0, 0) == 0x12);
    CHECK(g16.at(1, 0, 0) == 0xab);
    REQUIRE(notices.size() == 1);
    CHECK(notices[0].find("16-bit") != std::string::npos);

    // Gray + alpha: alpha dropped.
    notices.clear();
    write_png_raw(temp_dir() / "ga.png", 2, 1, PNG_COLOR_TYPE_GRAY_ALPHA, 8, {10, 255, 20, 0});
    Image ga = read_image((temp_dir() / "ga.png").string(), &notices);
    CHECK(ga.channels() == 1);
    CHECK(ga.at(1, 0, 0) == 20);
    CHECK(notices.at(0).find("alpha") != std::string::npos);

    // RGBA: alpha dropped, RGB kept.
    notices.clear();
    write_png_raw(temp_dir() / "rgba.png", 1, 1, PNG_COLOR_TYPE_RGB_ALPHA, 8, {1, 2, 3, 4});
    Image rgba = read_image((temp_dir() / "rgba.png").string(), &notices);
    CHECK(rgba.channels() == 3);
    CHECK(rgba.at(0, 0, 2) == 3);
    CHECK(!notices.empty());

    // Palette: expanded to RGB.
    notices.clear();
    write_png_raw(temp_dir() / "pal.png", 2, 1, PNG_COLOR_TYPE_PALETTE, 8, {1, 0}, true);
    Image pal = read_image((temp_dir() / "pal.png").string(), &notices);
    CHECK(pal.channels() == 3);
    CHECK(pal.at(0, 0, 0) == 200);
    CHECK(pal.at(1, 0, 2) == 30);
    CHECK(notices.at(0).find("palette") != std::string::npos);

    // Palette with transparency (tRNS): expanded to RGB, the transparency dropped.
    notices.clear();
    {
        FILE *f = std::fopen((temp_dir() / "trns.png").c_str(), "wb");
        png_structp w = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
        png_infop info = png_create_info_struct(w);
        png_init_io(w, f);
        png_set_IHDR(w, info, 2, 1, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                     PNG_FILTER_TYPE_DEFAULT);
        png_color colors[2] = {{10, 20, 30}, {200, 100, 50}};
        png_set_PLTE(w, info, colors, 2);
        png_byte alpha[2] = {0, 255};
        png_set_tRNS(w, info, alpha, 2, nullptr);
        png_write_info(w, info);
        png_byte row[2] = {0, 1};
        png_write_row(w, row);
        png_write_end(w, nullptr);
        png_destroy_write_struct(&w, &info);
        std::fclose(f);
    }
    const Image trns = read_image((temp_dir() / "trns.png").string(), &notices);
    CHECK(trns.channels() == 3);
    CHECK(trns.at(0, 0, 1) == 20);
    CHECK(trns.at(1, 0, 0) == 200);

    // 2-bit gray: expanded to 8 bits (libpng scales 0..3 to 0..255).
    notices.clear();
    write_png_raw(temp_dir() / "g2.png", 4, 1, PNG_COLOR_TYPE_GRAY, 2, {0x1b});  // 0, 1, 2, 3
    const Image g2 = read_image((temp_dir() / "g2.png").string(), &notices);
    CHECK(g2.at(0, 0, 0) == 0);
    CHECK(g2.at(1, 0, 0) == 85);
    CHECK(g2.at(3, 0, 0) == 255);
    CHECK(notices.at(0).find("2-bit") != std::string::npos);

    // The bundled real images read as they are, without notices.
    notices.clear();
    const Image real = read_image(test_images_dir() + "/rgb_small.png", &notices);
    CHECK(real.width() == 192);
    CHECK(real.height() == 320);
    CHECK(real.channels() == 3);
    CHECK(notices.empty());
}

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

TEST_CASE("PNM: a comment right after maxval, as Netpbm allows") {
    const fs::path d = temp_dir();
    spit(d / "comment.pgm", std::string("P5 2 1 255# made by hand\nAB"));
    const Image image = read_image((d / "comment.pgm").string());
    CHECK(image.at(0, 0, 0) == 'A');
    CHECK(image.at(1, 0, 0) == 'B');
}
