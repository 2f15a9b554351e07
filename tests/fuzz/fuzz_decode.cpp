// libFuzzer target for the image decoders. FILTERLAB_FUZZ_DECODER picks the
// entry point: `image` dispatches by content as read_image does; `png`, `pnm`
// and `bmp` call one decoder. Whatever decodes is encoded again in every
// format and decoded back, and must come back equal. `png` also decodes every
// input row by row (png_row_decoder.h, the streamed runs' reader): it may
// refuse what the whole decoder refuses, never crash, and where the whole
// decoder takes a non-interlaced PNG it must give the same bytes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "error.h"
#include "image_codecs.h"
#include "image_io.h"
#include "png_row_decoder.h"

using namespace filterlab;

namespace {

Image decode(const std::vector<uint8_t> &bytes) {
    const std::string decoder = FILTERLAB_FUZZ_DECODER;
    if (decoder == "png") return codecs::decode_png("input", bytes, nullptr);
    if (decoder == "bmp") return codecs::decode_bmp("input", bytes);
    if (decoder == "pnm") {
        if (bytes.size() < 2 || bytes[0] != 'P' || (bytes[1] != '5' && bytes[1] != '6')) return {};
        return codecs::decode_pnm("input", bytes);
    }
    return decode_image("input", bytes, nullptr);
}

// Encodes with `encode` into memory and returns the bytes.
template <typename Encode>
std::vector<uint8_t> encoded(Encode &&encode) {
    char *buffer = nullptr;
    std::size_t size = 0;
    std::FILE *file = open_memstream(&buffer, &size);
    if (!file) std::abort();
    encode(file);
    std::fclose(file);
    std::vector<uint8_t> bytes(buffer, buffer + size);
    std::free(buffer);
    return bytes;
}

// Gray written as BMP comes back as three equal channels.
bool same_pixels(const Image &original, const Image &back) {
    if (back.width() != original.width() || back.height() != original.height()) return false;
    for (int c = 0; c < back.channels(); c++)
        for (int y = 0; y < back.height(); y++)
            for (int x = 0; x < back.width(); x++) {
                if (back.at(x, y, c) != original.at(x, y, original.channels() == 1 ? 0 : c)) return false;
            }
    return back.channels() == original.channels() || original.channels() == 1;
}

void check_round_trips(const Image &image) {
    const auto png = encoded([&](std::FILE *f) { codecs::encode_png(f, "out.png", image); });
    const auto pnm = encoded([&](std::FILE *f) { codecs::encode_pnm(f, image); });
    const auto bmp = encoded([&](std::FILE *f) { codecs::encode_bmp(f, "out.bmp", image); });
    for (const auto *bytes : {&png, &pnm, &bmp}) {
        if (!same_pixels(image, decode_image("round trip", *bytes, nullptr))) std::abort();
    }
}

// The rows of `bytes` one at a time (one row's memory: a 2 KiB input may
// claim rows of up to 2^24 pixels); empty when the row decoder refuses it.
std::vector<uint8_t> rows_one_by_one(const std::vector<uint8_t> &bytes, int &width, int &channels) {
    try {
        codecs::PngRowDecoder rows("input", bytes, kMaxSide);
        width = rows.width();
        channels = rows.channels();
        std::vector<uint8_t> all, row(static_cast<std::size_t>(rows.width()) * rows.channels());
        for (int y = 0; y < rows.height(); y++) {
            rows.read_rows(1, row.data());
            if (all.size() < (1u << 22)) all.insert(all.end(), row.begin(), row.end());
        }
        return all;
    } catch (const Error &) {
        return {};
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size) {
    const std::vector<uint8_t> bytes(data, data + size);
    int width = 0, channels = 0;
    const std::vector<uint8_t> rows =
        std::string(FILTERLAB_FUZZ_DECODER) == "png" ? rows_one_by_one(bytes, width, channels) : std::vector<uint8_t>{};
    Image image;
    try {
        image = decode(bytes);
    } catch (const Error &) {
        return 0;  // refused with a message: the expected outcome for most inputs
    }
    // libpng takes chunks it drops before IHDR: only an IHDR first says for sure.
    const bool interlaced = size <= 28 || std::memcmp(data + 12, "IHDR", 4) != 0 || data[28] != 0;
    if (std::string(FILTERLAB_FUZZ_DECODER) == "png" && !interlaced && image.size() <= (1u << 22) &&
        (rows != to_interleaved(image) || width != image.width() || channels != image.channels())) {
        std::abort();  // the row decoder refused, or gave other bytes than the whole one
    }
    // Round trips of images up to 4 Mi samples: larger ones (a 1-bit palette
    // image grows 24-fold) would trip the run's allocation limit in encoders.
    if (image.size() > 0 && image.size() <= (1u << 22)) check_round_trips(image);
    return 0;
}
