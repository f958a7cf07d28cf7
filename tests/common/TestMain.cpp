// main() of a test bundle: runs the test named by the first argument (TestMain.h).
#include "TestMain.h"

#include "DemoExtension.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace ua::test {
namespace {

struct RegisteredTest {
    std::string name;
    TestRunner run;
};

// A function's static: registerTest runs from the static initialisers of the tests' files, in any
// order relative to this file's.
std::vector<RegisteredTest>& registry() {
    static std::vector<RegisteredTest> tests;
    return tests;
}

std::string baseName(const char* path) {
    const char* slash = std::strrchr(path, '/');
    std::string name = slash ? slash + 1 : path;
    const auto dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

int listTests(const char* bundle, const char* unknown) {
    if (unknown)
        std::fprintf(stderr, "%s: no test named '%s' in this bundle\n", bundle, unknown);
    std::fprintf(stderr, "usage: %s <test> [QtTest arguments]; the tests:\n", bundle);
    for (const RegisteredTest& t : registry())
        std::fprintf(stderr, "  %s\n", t.name.c_str());
    return 2;
}

} // namespace

bool registerTest(const char* sourceFile, TestRunner run) {
    registry().push_back({baseName(sourceFile), run});
    return true;
}

} // namespace ua::test

int main(int argc, char** argv) {
    using namespace ua::test;
    ua::useDemoByDefault();  // every ServerConfig has the benchmark and demo namespaces (server-app/demo/)
    if (argc < 2 || argv[1][0] == '-')
        return listTests(argv[0], nullptr);
    for (const RegisteredTest& t : registry()) {
        if (t.name != argv[1])
            continue;
        // The test sees its own arguments only: argv[0], then what followed its name.
        std::vector<char*> args{argv[0]};
        args.insert(args.end(), argv + 2, argv + argc);
        args.push_back(nullptr);
        return t.run(int(args.size()) - 1, args.data());
    }
    return listTests(argv[0], argv[1]);
}
