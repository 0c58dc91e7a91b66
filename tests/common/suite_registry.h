// One test executable per area, many suites in it.
//
// Each tests/<area>/test_<name>.cpp is still one Qt Test suite and one CTest
// test (<area>.<name>), run in a process of its own; what changed is how they
// are built. A suite used to be its own executable with QTEST_MAIN, so every
// suite parsed libtorch's, Qt's and nlohmann's headers and generated their
// inline code again: 63 executables took 40% of a cold build. Now an area's
// suites are one executable compiled as a unity build (a few suites per
// translation unit, tests/CMakeLists.txt), and a suite registers itself with
// IRSCOPE_TEST_MAIN / _GUILESS_MAIN / _APPLESS_MAIN in place of Qt's
// QTEST_MAIN / QTEST_GUILESS_MAIN / QTEST_APPLESS_MAIN, with the same
// meaning (which application object the suite runs under).
//
// Running one by hand: build/tests/test_<area> <name> [Qt Test options],
// e.g. build/tests/test_exec op_binding -v2 dispatchOneNode. Without a name
// the executable lists its suites.
//
// A suite is named by its file, test_<name>.cpp, so the CTest name, the file
// and the command line agree without a second spelling to keep in step.
#pragma once

#include <QObject>

namespace irscope::testing {

enum class SuiteApplication {
    None,    // QTEST_APPLESS_MAIN: no application object
    Core,    // QTEST_GUILESS_MAIN: QCoreApplication
    Default  // QTEST_MAIN: QApplication where the area links Qt Widgets,
             // QGuiApplication where it links Qt Gui, else QCoreApplication
};

using SuiteFactory = QObject* (*)();

// Called from a static initialiser in each suite's file; `file` is __FILE__.
bool registerSuite(const char* file, SuiteApplication application, SuiteFactory make);

}  // namespace irscope::testing

#define IRSCOPE_TEST_SUITE_REGISTER(TestObject, application)  \
    static const bool irscope_suite_registered_##TestObject = \
        irscope::testing::registerSuite(__FILE__, application, []() -> QObject* { return new TestObject; });

#define IRSCOPE_TEST_MAIN(TestObject) \
    IRSCOPE_TEST_SUITE_REGISTER(TestObject, irscope::testing::SuiteApplication::Default)
#define IRSCOPE_TEST_GUILESS_MAIN(TestObject) \
    IRSCOPE_TEST_SUITE_REGISTER(TestObject, irscope::testing::SuiteApplication::Core)
#define IRSCOPE_TEST_APPLESS_MAIN(TestObject) \
    IRSCOPE_TEST_SUITE_REGISTER(TestObject, irscope::testing::SuiteApplication::None)
