// Halide's errors are each call's own: many threads run Halide pipelines that
// fail at once, each with a parameter value no other call uses, and every
// error message must carry its own call's value (Halide's error handler is
// process-wide; runtime/languages/halide_variant.cpp keeps the text per call).
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "error.h"
#include "noise.h"
#include "registry.h"

namespace fl = filterlab;

namespace {

// Every Halide CPU schedule of the box: its generator refuses a radius over 15
// with a message that repeats the value (generators/box_generator.cpp).
std::vector<const fl::Variant *> halide_cpu_boxes() {
    std::vector<const fl::Variant *> found;
    for (const fl::Variant &v : fl::all_variants())
        if (v.filter == "box" && v.kind == fl::Kind::halide && v.backend == fl::Backend::cpu) found.push_back(&v);
    return found;
}

}  // namespace

TEST_CASE("halide errors: concurrent failing calls each report their own message") {
    const auto boxes = halide_cpu_boxes();
    REQUIRE(boxes.size() >= 2);
    const fl::Image input = fl::random_image(23, 19, 1, 4);
    constexpr int kThreads = 8, kCalls = 40;
    std::atomic<int> own{0};
    std::vector<std::string> wrong(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            std::vector<uint8_t> out(23 * 19);
            const fl::PlanarView out_view{out.data(), 23, 19, 1, 23, 23 * 19};
            for (int i = 0; i < kCalls; i++) {
                const std::string radius = std::to_string(1000 + t * kCalls + i);  // this call's alone
                const fl::Variant &v = *boxes[(t + i) % boxes.size()];
                try {
                    v.run(input.view(), out_view, {{"radius", std::stod(radius)}});
                    wrong[t] = v.name + " ran with radius " + radius;
                } catch (const fl::Error &e) {
                    const std::string message = e.what();
                    // "... got <radius>" (Halide may print two spaces before the value)
                    const bool ends_with_own = message.size() > radius.size() &&
                                               message.compare(message.size() - radius.size(), radius.size(), radius) == 0 &&
                                               message[message.size() - radius.size() - 1] == ' ';
                    if (ends_with_own && message.find(v.name) != std::string::npos) {
                        own++;
                    } else if (wrong[t].empty()) {
                        wrong[t] = "radius " + radius + " on " + v.name + " reported: " + message;
                    }
                }
            }
        });
    }
    for (auto &t : threads) t.join();
    for (const std::string &w : wrong) CHECK_MESSAGE(w.empty(), w);
    CHECK(own.load() == kThreads * kCalls);
}
