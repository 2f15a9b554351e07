#include "reference.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <utility>
#include <vector>

#include "error.h"

namespace filterlab::reference {
namespace {

thread_local bool serial = false;

// Runs row(y) for every y in [0, rows), in contiguous bands on the machine's
// cores (one band under Serial). The bands share nothing, so the result is
// the same either way.
template <typename RowFn>
void for_each_row(int rows, RowFn row) {
    const int cores = serial ? 1 : static_cast<int>(std::thread::hardware_concurrency());
    const int bands = std::clamp(cores, 1, std::max(rows / 16, 1));
    if (bands == 1) {
        for (int y = 0; y < rows; y++) row(y);
        return;
    }
    std::vector<std::thread> workers;
    for (int b = 0; b < bands; b++)
        workers.emplace_back([&, b] {
            for (int y = rows * b / bands; y < rows * (b + 1) / bands; y++) row(y);
        });
    for (std::thread &w : workers) w.join();
}

}  // namespace

Serial::Serial() : previous_(std::exchange(serial, true)) {}
Serial::~Serial() { serial = previous_; }

Image box(const Image &in, int radius) {
    Image out(in.width(), in.height(), in.channels());
    const int n = (2 * radius + 1) * (2 * radius + 1);
    for_each_row(in.height(), [&](int y) {
        for (int c = 0; c < in.channels(); c++)
            for (int x = 0; x < in.width(); x++) {
                int sum = 0;
                for (int j = -radius; j <= radius; j++)
                    for (int i = -radius; i <= radius; i++) sum += in.clamped(x + i, y + j, c);
                out.at(x, y, c) = static_cast<uint8_t>((sum + n / 2) / n);
            }
    });
    return out;
}

Image median(const Image &in, int size) {
    const int r = size / 2;
    Image out(in.width(), in.height(), in.channels());
    for_each_row(in.height(), [&](int y) {
        std::vector<uint8_t> window(size * size);
        for (int c = 0; c < in.channels(); c++)
            for (int x = 0; x < in.width(); x++) {
                int k = 0;
                for (int j = -r; j <= r; j++)
                    for (int i = -r; i <= r; i++) window[k++] = in.clamped(x + i, y + j, c);
                // The ((k^2+1)/2)-th smallest, i.e. index (k^2-1)/2 of the sorted window.
                std::nth_element(window.begin(), window.begin() + k / 2, window.end());
                out.at(x, y, c) = window[k / 2];
            }
    });
    return out;
}

std::array<int, 5> gaussian_weights(double sigma) {
    std::array<double, 5> g{};
    double total = 0;
    for (int i = -2; i <= 2; i++) total += g[i + 2] = std::exp(-(i * i) / (2 * sigma * sigma));
    std::array<int, 5> w{};
    int sum = 0;
    for (int k = 0; k < 5; k++) sum += w[k] = static_cast<int>(std::round(256 * g[k] / total));  // half away from 0
    w[2] += 256 - sum;
    return w;
}

Image gaussian(const Image &in, double sigma) {
    const std::array<int, 5> w = gaussian_weights(sigma);
    Image out(in.width(), in.height(), in.channels());
    for_each_row(in.height(), [&](int y) {
        for (int c = 0; c < in.channels(); c++)
            for (int x = 0; x < in.width(); x++) {
                int64_t sum = 0;
                for (int i = -2; i <= 2; i++)
                    for (int j = -2; j <= 2; j++) sum += w[i + 2] * w[j + 2] * in.clamped(x + j, y + i, c);
                out.at(x, y, c) = static_cast<uint8_t>((sum + 32768) >> 16);
            }
    });
    return out;
}

Image maxpool(const Image &in) {
    if (in.width() < 2 || in.height() < 2) throw Error("maxpool needs an image of at least 2x2");
    Image out(in.width() / 2, in.height() / 2, in.channels());
    for (int c = 0; c < in.channels(); c++)
        for (int y = 0; y < out.height(); y++)
            for (int x = 0; x < out.width(); x++)
                out.at(x, y, c) = std::max({in.at(2 * x, 2 * y, c), in.at(2 * x + 1, 2 * y, c),
                                            in.at(2 * x, 2 * y + 1, c), in.at(2 * x + 1, 2 * y + 1, c)});
    return out;
}

Image nlmeans(const Image &in, int patch, int search, double h) {
    const int C = in.channels();
    const double P = (2.0 * patch + 1) * (2.0 * patch + 1);
    Image out(in.width(), in.height(), C);
    for_each_row(in.height(), [&](int y) {
        std::vector<double> num(C);
        for (int x = 0; x < in.width(); x++) {
            double den = 0;
            std::fill(num.begin(), num.end(), 0.0);
            for (int dy = -search; dy <= search; dy++)
                for (int dx = -search; dx <= search; dx++) {
                    double d2 = 0;
                    for (int c = 0; c < C; c++)
                        for (int j = -patch; j <= patch; j++)
                            for (int i = -patch; i <= patch; i++) {
                                const double diff = double(in.clamped(x + i, y + j, c)) -
                                                    double(in.clamped(x + dx + i, y + dy + j, c));
                                d2 += diff * diff;
                            }
                    d2 /= C * P;
                    const double w = std::exp(-d2 / (h * h));
                    den += w;
                    for (int c = 0; c < C; c++) num[c] += w * in.clamped(x + dx, y + dy, c);
                }
            for (int c = 0; c < C; c++) {
                const double u = std::clamp(num[c] / den, 0.0, 255.0);
                out.at(x, y, c) = static_cast<uint8_t>(std::floor(u + 0.5));
            }
        }
    });
    return out;
}

}  // namespace filterlab::reference
