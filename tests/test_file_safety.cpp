// Nothing lost: a command never deletes or half-writes a file it did not
// create, whatever fails (a second output, a file-size limit, a signal, a
// concurrent writer), and leaves no temporary behind.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "cli_runner.h"
#include "image_io.h"
#include "noise.h"
#include "reference.h"

extern char **environ;

namespace fs = std::filesystem;
using namespace filterlab;
using namespace cli_test;

namespace {

const std::string gray_small = test_images_dir() + "/gray_small.png";

fs::path fresh_dir(const std::string &name) {
    const fs::path d = dir() / name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// The names in `d` that look like our temporaries (".name.XXXXXX").
std::vector<std::string> temporaries(const fs::path &d) {
    std::vector<std::string> found;
    for (auto &entry : fs::directory_iterator(d)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > 1 && name[0] == '.') found.push_back(name);
    }
    return found;
}

std::vector<uint8_t> bytes_of(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Starts filterlab with `args`, its output going to /dev/null.
pid_t spawn_cli(const std::vector<std::string> &args) {
    std::vector<std::string> all = {filterlab_exe()};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (auto &a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    // Default dispositions and no blocked signals, whatever this test inherited
    // (a shell's background job ignores SIGINT; nohup ignores SIGHUP).
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t every, none;
    sigfillset(&every);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes, &every);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    REQUIRE(rc == 0);
    return pid;
}

}  // namespace

TEST_CASE("a second output that fails at write time leaves the first output as it was") {
    const fs::path d = fresh_dir("noisy_fails");
    // /proc is a folder where no file can be created, not even by root: the
    // noisy output passes the early checks and fails when written.
    REQUIRE(fs::is_directory("/proc"));
    // The input is the output: the user's only copy.
    fs::copy_file(gray_small, d / "a.png");
    const std::vector<uint8_t> original = bytes_of(d / "a.png");
    expect_failure("run --filter median --input " + (d / "a.png").string() + " --output " + (d / "a.png").string() +
                       " --noise gaussian:5 --noisy-output /proc/noisy.png",
                   "/proc/noisy.png");
    CHECK(bytes_of(d / "a.png") == original);
    // An existing, separate output.
    fs::copy_file(gray_small, d / "b.png");
    expect_failure("run --filter median --input " + gray_small + " --output " + (d / "b.png").string() +
                       " --noise gaussian:5 --noisy-output /proc/noisy.png",
                   "cannot create output");
    CHECK(bytes_of(d / "b.png") == original);
    CHECK(temporaries(d).empty());
    // The same file named twice is refused before anything runs.
    expect_failure("run --filter median --input " + gray_small + " --output " + (d / "b.png").string() +
                       " --noise gaussian:5 --noisy-output " + (d / "." / "b.png").string(),
                   "named by both");
    CHECK(bytes_of(d / "b.png") == original);
}

TEST_CASE("a file-size limit gives the error line, not death by SIGXFSZ, and keeps the old file") {
    const fs::path d = fresh_dir("fsize");
    fs::copy_file(gray_small, d / "out.pgm");
    const std::vector<uint8_t> original = bytes_of(d / "out.pgm");
    // 4 blocks of 1 KiB: the PGM of gray_small does not fit.
    const Result r = run_cli_env("ulimit -f 4;", "run --filter box --input " + gray_small + " --output " +
                                                     (d / "out.pgm").string() + " --noise gaussian:5 --noisy-output " +
                                                     (d / "noisy.png").string());
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(r.err.rfind("filterlab: error: ", 0) == 0);
    CHECK(r.err.find("File too large") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(bytes_of(d / "out.pgm") == original);
    CHECK(!fs::exists(d / "noisy.png"));
    CHECK(temporaries(d).empty());
}

TEST_CASE("SIGINT, SIGTERM, SIGHUP and SIGQUIT while writing leave no temporary, and end the process by that signal") {
    const fs::path d = fresh_dir("signals");
    // A large random image: its PNG takes long enough to encode that the
    // signal arrives while the temporary is open.
    write_image((d / "in.pgm").string(), random_image(6000, 6000, 1, 3));
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
        CAPTURE(sig);
        // On a loaded machine the signal may come after the write is done: then
        // the run is tried again (at most 5 times), never counted as a pass.
        int status = 0;
        for (int attempt = 0; attempt < 5; attempt++) {
            fs::remove(d / "out.png");
            const pid_t pid = spawn_cli({"run", "--filter", "maxpool", "--input", (d / "in.pgm").string(),
                                         "--output", (d / "out.png").string()});
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
            while (temporaries(d).empty() && std::chrono::steady_clock::now() < deadline) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            ::kill(pid, sig);
            REQUIRE(::waitpid(pid, &status, 0) == pid);
            if (WIFSIGNALED(status)) break;
        }
        REQUIRE(WIFSIGNALED(status));  // caught while writing
        CHECK(WTERMSIG(status) == sig);
        CHECK(temporaries(d).empty());
        CHECK(!fs::exists(d / "out.png"));
    }
}

TEST_CASE("concurrent runs writing the same output leave one whole image, never a mix") {
    const fs::path d = fresh_dir("concurrent");
    const Image input = read_image(gray_small);
    std::vector<Image> expected;
    for (int r = 1; r <= 4; r++) expected.push_back(reference::box(input, r));
    for (int round = 0; round < 3; round++) {
        std::vector<pid_t> pids;
        for (int r = 1; r <= 4; r++) {
            pids.push_back(spawn_cli({"run", "--filter", "box", "--variant", "cpu_tiled", "--param",
                                      "radius=" + std::to_string(r), "--input", gray_small, "--output",
                                      (d / "same.png").string()}));
        }
        for (pid_t pid : pids) {
            int status = 0;
            REQUIRE(::waitpid(pid, &status, 0) == pid);
            CHECK(WIFEXITED(status));
            CHECK(WEXITSTATUS(status) == 0);
        }
        const Image written = read_image((d / "same.png").string());
        CHECK(std::find(expected.begin(), expected.end(), written) != expected.end());
        CHECK(temporaries(d).empty());
    }
}

TEST_CASE("numbers and options are parsed strictly") {
    const fs::path out = dir() / "strict.png";
    const std::string io = " --input " + gray_small + " --output " + out.string();
    for (const char *bad : {"radius=0x2", "radius=' 2'", "radius=1e1", "radius=2.0", "radius=+2", "radius="}) {
        expect_failure("run --filter box" + io + " --param " + bad, "is not an integer", out);
    }
    for (const char *bad : {"sigma=1e0", "sigma=inf", "sigma=nan", "sigma=0x1p0", "sigma=' 1'"}) {
        expect_failure("run --filter gaussian" + io + " --param " + bad, "is not a decimal number", out);
    }
    expect_failure("run --filter box" + io + " --param radius=1 --param radius=2", "radius is given twice", out);
    expect_failure("run --filter box" + io + " --noise gaussian:5 --seed -1", "--seed: '-1'", out);
    expect_failure("run --filter box" + io + " --noise gaussian:1e1", "is not salt_pepper:DENSITY", out);
    expect_usage_error("frobnicate", "unknown command 'frobnicate'");
    expect_usage_error("bench --sizes 1,,2 --out " + (dir() / "never").string(), "--sizes", dir() / "never");
    expect_usage_error("bench --sizes 0 --out " + (dir() / "never").string(), "--sizes", dir() / "never");
    expect_usage_error("bench --channels 1,,3 --out " + (dir() / "never").string(), "--channels", dir() / "never");
    const std::string long_name = std::string(300, 'x');
    expect_failure("run --filter box --input " + gray_small + " --output " + (dir() / long_name / "o.png").string(),
                   "name too long");
    // The decimal forms that are meant: accepted.
    CHECK(run_cli("run --filter gaussian" + io + " --param sigma=.5").status == 0);
    CHECK(run_cli("run --filter gaussian" + io + " --param sigma=1.25").status == 0);
}
