// The main() of every area's test executable (tests/common/suite_registry.h):
// picks the suite named by the first argument, makes the application object
// Qt Test's own QTEST_*_MAIN would have made for it, and hands the remaining
// arguments to QTest::qExec, so a suite runs exactly as it did as an
// executable of its own. Compiled into each area's executable, so the
// QT_WIDGETS_LIB / QT_GUI_LIB the area links decide QTEST_MAIN's application,
// as they did for Qt's macro.
#include <QCoreApplication>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#if defined(QT_WIDGETS_LIB)
#include <QApplication>
#elif defined(QT_GUI_LIB)
#include <QGuiApplication>
#endif

#include "common/suite_registry.h"

namespace irscope::testing {
namespace {

struct Suite {
    std::string name;
    SuiteApplication application;
    SuiteFactory make;
};

std::vector<Suite>& suites() {
    static std::vector<Suite> all;
    return all;
}

// ".../tests/exec/test_op_binding.cpp" -> "op_binding"
std::string suiteNameOf(const char* file) {
    std::string name = file;
    if (auto slash = name.find_last_of("/\\"); slash != std::string::npos) name.erase(0, slash + 1);
    if (name.rfind("test_", 0) == 0) name.erase(0, 5);
    if (auto dot = name.find('.'); dot != std::string::npos) name.erase(dot);
    return name;
}

int runSuite(const Suite& suite, int argc, char** argv) {
    std::unique_ptr<QCoreApplication> app;
    switch (suite.application) {
    case SuiteApplication::None: break;
    case SuiteApplication::Core: app = std::make_unique<QCoreApplication>(argc, argv); break;
    case SuiteApplication::Default:
#if defined(QT_WIDGETS_LIB)
        app = std::make_unique<QApplication>(argc, argv);
#elif defined(QT_GUI_LIB)
        app = std::make_unique<QGuiApplication>(argc, argv);
#else
        app = std::make_unique<QCoreApplication>(argc, argv);
#endif
#if defined(QT_WIDGETS_LIB) || defined(QT_GUI_LIB)
        app->setAttribute(Qt::AA_Use96Dpi, true);  // as QTEST_MAIN does
#endif
        break;
    }
    // Settings (QSettings, in QStandardPaths' test mode) of the suite's own:
    // the suites of one executable run side by side under ctest -j, and a
    // window of one restoring the dock layout another saved would lose room.
    if (app) QCoreApplication::setApplicationName(QString::fromStdString("irscope-test-" + suite.name));
    std::unique_ptr<QObject> test(suite.make());
    return QTest::qExec(test.get(), argc, argv);
}

}  // namespace

bool registerSuite(const char* file, SuiteApplication application, SuiteFactory make) {
    suites().push_back({suiteNameOf(file), application, make});
    return true;
}

}  // namespace irscope::testing

int main(int argc, char** argv) {
    using irscope::testing::suites;
    auto& all = suites();
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    const char* wanted = argc > 1 ? argv[1] : nullptr;
    for (const auto& suite : all) {
        if (wanted && suite.name == wanted) {
            // The suite sees its own name as argv[0] (Qt Test prints it) and the rest
            // of the command line as its options.
            std::vector<char*> args{argv[0]};
            args.insert(args.end(), argv + 2, argv + argc);
            args.push_back(nullptr);
            int count = argc - 1;
            return irscope::testing::runSuite(suite, count, args.data());
        }
    }
    if (wanted) std::fprintf(stderr, "%s: no suite named '%s' in this executable\n", argv[0], wanted);
    std::fprintf(stderr, "usage: %s SUITE [Qt Test options]\nsuites:\n", argv[0]);
    for (const auto& suite : all) std::fprintf(stderr, "  %s\n", suite.name.c_str());
    return 2;
}
