// The references on small cases worked out by hand, borders included.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "error.h"
#include "noise.h"
#include "reference.h"

using namespace filterlab;

namespace {
Image make(int w, int h, std::initializer_list<int> values) {
    Image image(w, h, 1);
    int i = 0;
    for (int v : values) image.at(i % w, i / w, 0) = static_cast<uint8_t>(v), i++;
    return image;
}
}  // namespace

TEST_CASE("box: impulse, clamped borders and rounding half up") {
    const Image impulse = make(3, 3, {0, 0, 0, 0, 9, 0, 0, 0, 0});
    const Image out = reference::box(impulse, 1);
    // Every window holds the 9 exactly once (clamping repeats only the edges): (9 + 4) / 9 = 1.
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 3; x++) CHECK(out.at(x, y, 0) == 1);

    // [0 1]: left window 0,0,1 per row -> (3 + 4) / 9 = 0; right 0,1,1 -> (6 + 4) / 9 = 1.
    const Image pair = reference::box(make(2, 1, {0, 1}), 1);
    CHECK(pair.at(0, 0, 0) == 0);
    CHECK(pair.at(1, 0, 0) == 1);
    // Half up: 4.5 -> 5. [4 5] with r=1: left 4,4,5 x3 = 39 -> (39+4)/9 = 4; right 4,5,5 x3 = 42 -> 46/9 = 5.
    const Image half = reference::box(make(2, 1, {4, 5}), 1);
    CHECK(half.at(0, 0, 0) == 4);
    CHECK(half.at(1, 0, 0) == 5);
    // A 1x1 image is its own mean at any radius.
    CHECK(reference::box(make(1, 1, {200}), 15).at(0, 0, 0) == 200);
}

TEST_CASE("box: channels are filtered independently") {
    Image rgb(2, 2, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++) rgb.at(x, y, c) = static_cast<uint8_t>(10 * (c + 1));
    const Image out = reference::box(rgb, 2);
    for (int c = 0; c < 3; c++) CHECK(out.at(1, 1, c) == 10 * (c + 1));
}

TEST_CASE("median: exact, with duplicates, at the border") {
    CHECK(reference::median(make(3, 3, {9, 1, 8, 2, 7, 3, 6, 4, 5}), 3).at(1, 1, 0) == 5);
    // A lone salt pixel disappears.
    CHECK(reference::median(make(3, 3, {0, 0, 0, 0, 255, 0, 0, 0, 0}), 3).at(1, 1, 0) == 0);
    // Corner (0,0) of [[1,2],[3,4]] sees 1,1,2 / 1,1,2 / 3,3,4: sorted 1,1,1,1,2,2,3,3,4 -> 2.
    CHECK(reference::median(make(2, 2, {1, 2, 3, 4}), 3).at(0, 0, 0) == 2);
    // 5x5 on a 1x1: all 25 samples equal.
    CHECK(reference::median(make(1, 1, {77}), 5).at(0, 0, 0) == 77);
}

TEST_CASE("gaussian: the contract's weights and an impulse response") {
    CHECK(reference::gaussian_weights(1.0) == std::array<int, 5>{14, 63, 102, 63, 14});
    for (double sigma : {0.3, 0.5, 1.0, 1.7, 3.0, 100.0}) {
        const auto w = reference::gaussian_weights(sigma);
        CHECK(w[0] + w[1] + w[2] + w[3] + w[4] == 256);
        CHECK(w[0] == w[4]);
    }
    Image impulse(5, 5, 1, 0);
    impulse.at(2, 2, 0) = 255;
    const Image out = reference::gaussian(impulse, 1.0);
    CHECK(out.at(2, 2, 0) == (102 * 102 * 255 + 32768) >> 16);  // 40
    CHECK(out.at(0, 2, 0) == (14 * 102 * 255 + 32768) >> 16);    // 6
    CHECK(reference::gaussian(Image(3, 2, 1, 200), 2.0).at(1, 1, 0) == 200);
}

TEST_CASE("maxpool: 2x2 maxima, odd sizes floor, too small refused") {
    const Image out = reference::maxpool(make(5, 3, {1, 2, 3, 4, 99, 5, 6, 7, 8, 99, 99, 99, 99, 99, 99}));
    REQUIRE(out.width() == 2);
    REQUIRE(out.height() == 1);
    CHECK(out.at(0, 0, 0) == 6);
    CHECK(out.at(1, 0, 0) == 8);
    CHECK_THROWS_AS(reference::maxpool(make(1, 4, {1, 2, 3, 4})), Error);
}

TEST_CASE("nlmeans: a two-pixel image worked by hand") {
    // [0 100], p = 0, s = 1, h = 100. A difference of 100 weighs exp(-1).
    const Image out = reference::nlmeans(make(2, 1, {0, 100}), 0, 1, 100.0);
    const double e = std::exp(-1.0);
    CHECK(out.at(0, 0, 0) == static_cast<int>(std::floor(100 * e / (2 + e) + 0.5)));  // 16
    CHECK(out.at(1, 0, 0) == static_cast<int>(std::floor(200 / (2 + e) + 0.5)));      // 84
    CHECK(out.at(0, 0, 0) == 16);
    CHECK(out.at(1, 0, 0) == 84);
    CHECK(reference::nlmeans(Image(4, 3, 3, 42), 1, 2, 10.0) == Image(4, 3, 3, 42));
}

TEST_CASE("the rows in bands on every core give the serial result") {
    const Image in = random_image(61, 97, 3, 15);
    auto all = [&] {  // the four references computed in bands
        return std::vector<Image>{reference::box(in, 4), reference::median(in, 5), reference::gaussian(in, 1.5),
                                  reference::nlmeans(in, 1, 3, 12)};
    };
    const std::vector<Image> banded = all();
    std::vector<Image> serial;
    {
        const reference::Serial one_thread;
        serial = all();
    }
    for (std::size_t i = 0; i < banded.size(); i++) {
        INFO("filter #", i);
        CHECK(banded[i] == serial[i]);
    }
}
