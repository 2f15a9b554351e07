// The API's device-memory cases, part of test_api.cpp (run with --cuda).

namespace {

// A device copy of a UserImage's bytes (same layout and pitch), 256-byte aligned.
struct DeviceCopy {
    uint8_t *data = nullptr;
    std::size_t size;
    explicit DeviceCopy(const UserImage &image) : size(image.bytes.size()) {
        REQUIRE(cudaMalloc(reinterpret_cast<void **>(&data), size) == cudaSuccess);
        REQUIRE(cudaMemcpy(data, image.bytes.data(), size, cudaMemcpyHostToDevice) == cudaSuccess);
    }
    ~DeviceCopy() { cudaFree(data); }
    fl::ImageRef ref(const UserImage &image) const {
        fl::ImageRef r = image.ref;
        r.data = data;
        r.memory = fl::Memory::cuda_device;
        return r;
    }
    void download(UserImage &image) const {
        REQUIRE(cudaMemcpy(image.bytes.data(), data, size, cudaMemcpyDeviceToHost) == cudaSuccess);
    }
};

// One variant on device images on a stream of its own; the output read back
// after the stream is synchronised.
void check_on_device(const fl::VariantInfo &v, fl::Layout layout, int pad, cudaStream_t stream) {
    const std::string &filter = v.filter, &variant = v.name;
    CAPTURE(filter);
    CAPTURE(variant);
    const std::map<std::string, double> params = fl::good_params(v);  // the defaults where it takes them
    const fl::FilterInfo &info = fl::filter_info(filter);
    const int w = 61, h = 35, c = 3;
    const fl::Image input = fl::random_image(w, h, c, 11);
    const auto [ow, oh] = info.output_size(w, h);
    UserImage in(w, h, c, layout, pad), out(ow, oh, c, layout, pad);
    in.fill(input);
    DeviceCopy din(in), dout(out);
    fl::Options o;
    o.variant = variant;
    o.cuda_stream = stream;
    const fl::Outcome r = fl::run(filter, din.ref(in), dout.ref(out), params, o);
    REQUIRE_MESSAGE(r.ok, r.message);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    dout.download(out);
    CHECK(fl::compare_to_reference(info, info.reference(input, fl::ParamValues(params.begin(), params.end())),
                                   out.image())
              .equal);
    CHECK(out.padding_untouched());
}

// Every CUDA variant on device images of the current device, in place on a
// stream of its own (rows of 61 + 3 = 64 bytes, 16-byte aligned), and, when
// `staged_too`, interleaved (copied to a layout it takes and back).
void check_every_cuda_variant(bool staged_too) {
    cudaStream_t stream;
    REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
    int ran = 0;
    for (const fl::VariantInfo &v : fl::variants()) {
        if (!v.cuda) continue;
        check_on_device(v, fl::Layout::planar, 3, stream);
        if (staged_too) check_on_device(v, fl::Layout::interleaved, 0, nullptr);
        ran++;
    }
    CHECK(ran >= 30);
    cudaStreamDestroy(stream);
}

}  // namespace

TEST_CASE("api cuda: every CUDA variant on device images, in place and on a stream") {
    check_every_cuda_variant(false);
}

// A caller whose thread's current device is not 0 (cudaSetDevice): each of
// its variants runs there (Halide's runtime gets that device's context), in
// place and staged. Needs two GPUs; with one there is nothing to check.
TEST_CASE("api cuda: on the calling thread's current device") {
    int devices = 0;
    REQUIRE(cudaGetDeviceCount(&devices) == cudaSuccess);
    if (devices < 2) {
        MESSAGE("one GPU visible: the second device's case needs two");
        return;
    }
    REQUIRE(cudaSetDevice(1) == cudaSuccess);
    check_every_cuda_variant(true);
    int current = -1;
    CHECK(cudaGetDevice(&current) == cudaSuccess);
    CHECK(current == 1);  // the library left the caller's device as it was
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
}

TEST_CASE("api cuda: copied when the layout needs it; host images on CUDA variants; the default") {
    for (const fl::FilterInfo &f : fl::all_filters()) {
        const fl::VariantInfo by_default{f.name, ""};  // the default variant, at the defaults
        check_on_device(by_default, fl::Layout::interleaved, 0, nullptr);  // interleaved: staged
        check_on_device(by_default, fl::Layout::planar, 0, nullptr);  // pitch 61: not aligned, staged
        CHECK(!fl::default_variant(f.name, fl::Memory::cuda_device).empty());
        fl::Options o;
        o.variant = fl::default_variant(f.name, fl::Memory::cuda_device);
        check_filter(f.name, 45, 21, 3, fl::Layout::interleaved, 2, o);  // host images, a CUDA variant
    }
}

// Run alone (test_api --cuda-lost): it leaves the process's CUDA context unusable.
TEST_CASE("gpu lost: an error that ruins the CUDA context says so, in every call after it") {
    // Device images whose allocations are far smaller than their sizes claim:
    // the in-place kernel reads and writes far beyond them, and faults.
    // The input is real; the output has 4 KiB for rows 256 KiB apart (2 GiB),
    // and is allocated after the input, so that most of what its rows claim
    // is unmapped (and the two do not overlap, which the API would copy around).
    uint8_t *in = nullptr, *out = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void **>(&in), 8192 * 8192) == cudaSuccess);
    REQUIRE(cudaMalloc(reinterpret_cast<void **>(&out), 4096) == cudaSuccess);
    REQUIRE(cudaMemset(in, 1, 8192 * 8192) == cudaSuccess);
    const fl::ImageRef big_in{in, 8192, 8192, 1, 8192, fl::Layout::planar, fl::Memory::cuda_device};
    fl::ImageRef big_out = big_in;
    big_out.data = out;
    big_out.row_pitch = (1 << 18) - 16;  // 16-byte aligned, a plane under 2^31 bytes: worked on in place
    REQUIRE_MESSAGE(out >= in + 8192 * 8192, "the output was not allocated above the input");
    const fl::Outcome queued = fl::box(big_in, big_out, 1, {"hw_wide_rows"});  // asynchronous: queued, not yet run
    REQUIRE_MESSAGE(queued.ok, queued.message);
    const cudaError_t fault = cudaDeviceSynchronize();
    REQUIRE_MESSAGE(fault != cudaSuccess, "the out-of-bounds kernel did not fault");
    // Every later CUDA call fails; each says that the GPU state is lost.
    const fl::ImageRef small_in{in, 16, 16, 1, 16, fl::Layout::planar, fl::Memory::cuda_device};
    fl::ImageRef small_out = small_in;
    small_out.data = out;
    UserImage host_in(16, 16, 1, fl::Layout::planar, 0), host_out(16, 16, 1, fl::Layout::planar, 0);
    host_in.fill(fl::random_image(16, 16, 1, 3));
    for (const fl::Outcome &r : {fl::box(small_in, small_out, 1, {"hw_wide_rows"}),
                                 fl::box(host_in.ref, host_out.ref, 1, {"hw_wide_rows"}),
                                 fl::median(host_in.ref, host_out.ref, 3, {"cuda_register_block"})}) {
        CHECK(!r.ok);
        CHECK_MESSAGE(r.message.find("GPU state is lost") != std::string::npos, r.message);
    }
    // The CPU variants are unaffected.
    CHECK(fl::box(host_in.ref, host_out.ref, 1, {"cpu_tiled"}));
}
