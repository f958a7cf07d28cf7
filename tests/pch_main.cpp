// The host of the precompiled headers of the tests in the sanitizer builds (tests/CMakeLists.txt).
int main() { return 0; }
