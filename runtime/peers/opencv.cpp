// OpenCV as the CPU peer (kind `peer`), built only when Debian's libopencv-dev
// is there, as a plugin (see plugins.h). Where OpenCV's function is not the
// contract's, `check` and `bench` report the difference (and PSNR) instead of
// failing:
//   blur (BORDER_REPLICATE): the same window and border; rounding to nearest,
//     which equals half up for an odd window, but computed in OpenCV's own way;
//   medianBlur: the exact median with replicated borders, as the contract;
//   GaussianBlur (BORDER_REPLICATE): its own weights from sigma and its own
//     fixed point, not the contract's 8-bit integer weights;
//   fastNlMeansDenoising: another formula (OpenCV subtracts 2 sigma^2 and uses
//     integer tables); compare by PSNR only.
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/photo.hpp>

#include <string>
#include <vector>

#include "error.h"
#include "plugins.h"
#include "registry.h"

namespace {

using filterlab::ParamValues;
using filterlab::PlanarView;

cv::Mat plane(const PlanarView &view, int c) {
    return cv::Mat(view.height, view.width, CV_8UC1, view.data + c * view.plane_stride,
                   static_cast<std::size_t>(view.row_stride));
}

// Runs `f(src, dst)` on each plane, turning OpenCV's exceptions into Error.
template <typename F>
void per_plane(const PlanarView &in, const PlanarView &out, F &&f) {
    try {
        for (int c = 0; c < in.channels; c++) {
            cv::Mat dst = plane(out, c);
            f(plane(in, c), dst);
        }
    } catch (const cv::Exception &e) {
        throw filterlab::Error(std::string("OpenCV: ") + e.what());
    }
}

void nl_means(const PlanarView &in, const PlanarView &out, const ParamValues &p) {
    // Interleave for OpenCV (its distance also sums over channels), then split back.
    std::vector<cv::Mat> planes, result;
    for (int c = 0; c < in.channels; c++) planes.push_back(plane(in, c));
    cv::Mat src, dst;
    try {
        cv::merge(planes, src);
        cv::fastNlMeansDenoising(src, dst, static_cast<float>(p.at("h")), 2 * static_cast<int>(p.at("patch")) + 1,
                                 2 * static_cast<int>(p.at("search")) + 1);
        cv::split(dst, result);
        for (int c = 0; c < in.channels; c++) {
            cv::Mat target = plane(out, c);
            result[c].copyTo(target);
        }
    } catch (const cv::Exception &e) {
        throw filterlab::Error(std::string("OpenCV: ") + e.what());
    }
}

filterlab::Variant peer(const char *filter, const char *name, std::vector<filterlab::ParamSupport> supports,
                        filterlab::RunFunction run, bool computes_contract) {
    return {filter,         name, filterlab::Backend::cpu, filterlab::Kind::peer, std::move(supports), std::move(run),
            {},             computes_contract};
}

}  // namespace

extern "C" std::size_t filterlab_plugin_abi() { return filterlab::plugin_abi(); }

extern "C" void filterlab_plugin_variants(std::vector<filterlab::Variant> *variants, std::string *description) {
    *description = "OpenCV " CV_VERSION ", " + std::to_string(cv::getNumThreads()) + " threads";
    variants->push_back(peer("box", "opencv_blur", {},
                             [](const PlanarView &in, const PlanarView &out, const ParamValues &p) {
                                 const int k = 2 * static_cast<int>(p.at("radius")) + 1;
                                 per_plane(in, out, [&](const cv::Mat &s, cv::Mat &d) {
                                     cv::blur(s, d, cv::Size(k, k), cv::Point(-1, -1), cv::BORDER_REPLICATE);
                                 });
                             },
                             true));
    variants->push_back(peer("median", "opencv_median_blur", {},
                             [](const PlanarView &in, const PlanarView &out, const ParamValues &p) {
                                 per_plane(in, out, [&](const cv::Mat &s, cv::Mat &d) {
                                     cv::medianBlur(s, d, static_cast<int>(p.at("size")));
                                 });
                             },
                             true));
    variants->push_back(peer("gaussian", "opencv_gaussian_blur", {},
                             [](const PlanarView &in, const PlanarView &out, const ParamValues &p) {
                                 per_plane(in, out, [&](const cv::Mat &s, cv::Mat &d) {
                                     cv::GaussianBlur(s, d, cv::Size(5, 5), p.at("sigma"), p.at("sigma"),
                                                      cv::BORDER_REPLICATE);
                                 });
                             },
                             false));
    variants->push_back(peer("nlmeans", "opencv_fast_nl_means", {}, nl_means, false));
}
