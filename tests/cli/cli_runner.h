#pragma once
// Runs the irscope binary under test and captures what it prints.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace irscope::test {

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

inline CliResult runIrscope(const QStringList& args, int timeoutMs = 120000) {
    QProcess process;
    process.start(IRSCOPE_BINARY, args);
    CliResult result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.err = "timed out";
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

}  // namespace irscope::test
