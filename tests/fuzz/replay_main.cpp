// fuzz_replay: runs files through the fuzz harness without libFuzzer, so the normal (gcc) build
// and ctest keep the committed corpus and every saved crash input passing.
//
//   fuzz_replay PATH...     PATH is a file or a folder (read recursively, in sorted order);
//                           a PATH that does not exist is skipped.
//
// A failing input abort()s inside LLVMFuzzerTestOneInput; the signal handler below first prints
// which file it was.
#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size);

namespace {

std::string g_current;

extern "C" void onFatalSignal(int sig) {
    static const char prefix[] = "\nfuzz_replay: failing input: ";
    ssize_t ignored = write(STDERR_FILENO, prefix, sizeof prefix - 1);
    ignored = write(STDERR_FILENO, g_current.data(), g_current.size());
    ignored = write(STDERR_FILENO, "\n", 1);
    (void)ignored;
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

bool runFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "fuzz_replay: cannot read %s\n", p.c_str());
        return false;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    g_current = p.string();
    // Copy into an exactly sized heap block, as libFuzzer does, so that ASan builds catch overreads.
    std::vector<uint8_t> input(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(input.empty() ? nullptr : input.data(), input.size());
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE_OR_FOLDER...\n", argv[0]);
        return 2;
    }
    for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, onFatalSignal);

    std::size_t ran = 0;
    bool ok = true;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path root(argv[i]);
        std::error_code ec;
        if (!std::filesystem::exists(root, ec)) {
            std::printf("fuzz_replay: %s does not exist, skipped\n", root.c_str());
            continue;
        }
        std::vector<std::filesystem::path> files;
        if (std::filesystem::is_directory(root)) {
            for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
                if (entry.is_regular_file()) files.push_back(entry.path());
            std::sort(files.begin(), files.end());
        } else {
            files.push_back(root);
        }
        std::size_t ranHere = 0;
        for (const auto& f : files) {
            if (!runFile(f)) { ok = false; continue; }
            ++ranHere;
        }
        std::printf("fuzz_replay: %zu inputs from %s\n", ranHere, root.c_str());
        ran += ranHere;
    }
    if (ok) std::printf("fuzz_replay: ran %zu inputs, all passed\n", ran);
    else std::printf("fuzz_replay: ran %zu inputs; some files could not be read\n", ran);
    return ok ? 0 : 1;
}
