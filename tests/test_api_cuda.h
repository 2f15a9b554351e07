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
void check_on_device(const std::string &filter, const std::string &variant, fl::Layout layout, int pad,
                     cudaStream_t stream) {
    CAPTURE(filter);
    CAPTURE(variant);
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
    const fl::Outcome r = fl::run(filter, din.ref(in), dout.ref(out), {}, o);
    REQUIRE_MESSAGE(r.ok, r.message);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    dout.download(out);
    CHECK(fl::compare_to_reference(info, info.reference(input, info.defaults()), out.image()).equal);
    CHECK(out.padding_untouched());
}

}  // namespace

TEST_CASE("api cuda: every CUDA variant on device images, in place and on a stream") {
    cudaStream_t stream;
    REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
    int ran = 0;
    for (const fl::VariantInfo &v : fl::variants()) {
        if (!v.cuda) continue;
        // Rows of 61 + 3 = 64 bytes, 16-byte aligned: the variant works in place.
        check_on_device(v.filter, v.name, fl::Layout::planar, 3, stream);
        ran++;
    }
    CHECK(ran >= 30);
    cudaStreamDestroy(stream);
}

TEST_CASE("api cuda: copied when the layout needs it; host images on CUDA variants; the default") {
    for (const fl::FilterInfo &f : fl::all_filters()) {
        check_on_device(f.name, "", fl::Layout::interleaved, 0, nullptr);  // interleaved: staged
        check_on_device(f.name, "", fl::Layout::planar, 0, nullptr);  // pitch 61: not aligned, staged
        CHECK(!fl::default_variant(f.name, fl::Memory::cuda_device).empty());
        fl::Options o;
        o.variant = fl::default_variant(f.name, fl::Memory::cuda_device);
        check_filter(f.name, 45, 21, 3, fl::Layout::interleaved, 2, o);  // host images, a CUDA variant
    }
}
