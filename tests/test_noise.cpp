#include <doctest/doctest.h>

#include <cmath>

#include "noise.h"

using namespace filterlab;

TEST_CASE("noise is a function of the seed") {
    Image a(64, 48, 3, 128), b(64, 48, 3, 128), c(64, 48, 3, 128);
    add_salt_and_pepper(a, 0.3, 42);
    add_salt_and_pepper(b, 0.3, 42);
    add_salt_and_pepper(c, 0.3, 43);
    CHECK(a == b);
    CHECK(!(a == c));
    // The first values of the generator are fixed forever (same image on every machine).
    SeededRandom r(0);
    CHECK(r.next() == 0xe220a8397b1dcdafULL);
}

TEST_CASE("salt and pepper: density, values, all channels alike") {
    Image image(200, 100, 3, 128);
    add_salt_and_pepper(image, 0.25, 1);
    int noisy = 0;
    for (int y = 0; y < 100; y++)
        for (int x = 0; x < 200; x++) {
            const uint8_t v = image.at(x, y, 0);
            CHECK((v == 0 || v == 128 || v == 255));
            CHECK(image.at(x, y, 1) == v);
            CHECK(image.at(x, y, 2) == v);
            noisy += v != 128;
        }
    CHECK(noisy > 0.22 * 20000);
    CHECK(noisy < 0.28 * 20000);
    Image untouched(10, 10, 1, 7);
    add_salt_and_pepper(untouched, 0.0, 1);
    CHECK(untouched == Image(10, 10, 1, 7));
}

TEST_CASE("Gaussian noise: rounded, clamped, about the right spread") {
    Image image(256, 256, 1, 128);
    add_gaussian_noise(image, 10.0, 5);
    double sum = 0, squares = 0;
    for (uint8_t v : image.samples()) sum += v, squares += (v - 128.0) * (v - 128.0);
    CHECK(std::abs(sum / image.size() - 128) < 0.5);
    CHECK(std::abs(std::sqrt(squares / image.size()) - 10) < 0.5);
    Image dark(100, 100, 1, 0);
    add_gaussian_noise(dark, 50, 3);  // clamped at 0, never wrapped
    for (uint8_t v : dark.samples()) CHECK(v < 250);
}

TEST_CASE("PSNR") {
    Image a(10, 10, 1, 100), b(10, 10, 1, 100);
    CHECK(std::isinf(psnr(a, b)));
    b.at(0, 0, 0) = 110;  // MSE = 100 / 100 = 1
    CHECK(psnr(a, b) == doctest::Approx(10 * std::log10(255.0 * 255.0)));
}
