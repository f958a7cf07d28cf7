// The main() of a QtTest test class in a test bundle: the tests of a folder are one executable
// (tests/CMakeLists.txt, ua_add_qtest), built once and linked once, and each test class is still its
// own ctest test and its own process. UA_TEST_MAIN(TestClass) and UA_TEST_GUILESS_MAIN(TestClass)
// stand where QTEST_MAIN and QTEST_GUILESS_MAIN stood and do what they do (the same application
// object, initMain(), QTest::qExec); instead of defining main() they register the test under its
// source file's base name ("tst_ns0" for tst_ns0.cpp), which is its ctest name.
//
// Run one test of a bundle by hand: <bundle> <test name> [QtTest arguments], for example
//   build/tests/server/tests_server tst_events -v2 raiseWithoutSubscribersIsCheap
// Without a name, or with an unknown one, the bundle lists its tests and exits with 2.
#pragma once

#include <QtTest>

namespace ua::test {

using TestRunner = int (*)(int argc, char** argv);

// Registers a test under the base name of sourceFile (no folder, no extension); always true.
bool registerTest(const char* sourceFile, TestRunner run);

} // namespace ua::test

#define UA_TEST_MAIN_IMPL(TestObject, ...)                                                          \
    namespace {                                                                                     \
    int uaRunTest_##TestObject(int argc, char** argv) {                                             \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                          \
        __VA_ARGS__                                                                                 \
        TestObject tc;                                                                              \
        QTEST_SET_MAIN_SOURCE_PATH                                                                  \
        return QTest::qExec(&tc, argc, argv);                                                       \
    }                                                                                               \
    [[maybe_unused]] const bool uaTestRegistered_##TestObject =                                     \
        ::ua::test::registerTest(__FILE__, &uaRunTest_##TestObject);                                \
    }

// QTEST_MAIN: QApplication when the bundle links Qt Widgets, QGuiApplication with Qt Gui, else
// QCoreApplication (Qt's QTEST_MAIN_SETUP).
#define UA_TEST_MAIN(TestObject) UA_TEST_MAIN_IMPL(TestObject, QTEST_MAIN_SETUP())
// QTEST_GUILESS_MAIN: QCoreApplication.
#define UA_TEST_GUILESS_MAIN(TestObject) UA_TEST_MAIN_IMPL(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
