#pragma once
// One Python process per suite that checks files the way PyTorch reads them.
//
// Debian's python3 takes about a second to import torch 1.13; a suite that
// checked each file it wrote with its own `python3 -c` paid that per file
// (sixteen seconds in io.tensor_write, in every build CI runs). The worker
// imports once and answers requests in turn: the suite's script defines
// `handle(args)` returning a string; each request is one line of JSON (a list
// of strings), each answer one line of JSON, {"out": ...} or {"error": the
// traceback}. A request the script fails on fails that test row alone.
#include <QByteArray>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <memory>
#include <stdexcept>
#include <string>

namespace irscope::test {

class PythonWorker {
public:
    // `script` defines handle(args); `imports` is what it needs (checked once:
    // available() is false when Debian's python3 cannot import it).
    PythonWorker(QString script, QString imports) : script_(std::move(script)), imports_(std::move(imports)) {}
    ~PythonWorker() {
        if (!process_) return;
        process_->closeWriteChannel();  // the loop ends at end of input
        if (!process_->waitForFinished(10000)) process_->kill();
        process_->waitForFinished();
    }
    PythonWorker(const PythonWorker&) = delete;
    PythonWorker& operator=(const PythonWorker&) = delete;

    bool available() {
        if (!checked_) {
            checked_ = true;
            if (QFileInfo::exists("/usr/bin/python3")) start();
        }
        return process_ != nullptr;
    }

    // The handler's answer for `args`; throws with Python's traceback when it failed.
    std::string call(const QStringList& args) {
        if (!available()) throw std::runtime_error("no /usr/bin/python3 with " + imports_.toStdString());
        QJsonArray request;
        for (const auto& a : args) request.append(a);
        process_->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + "\n");
        while (!process_->canReadLine())
            if (!process_->waitForReadyRead(120000))
                throw std::runtime_error("python stopped answering: " + process_->readAllStandardError().toStdString());
        const QJsonObject answer = QJsonDocument::fromJson(process_->readLine()).object();
        if (answer.contains("error"))
            throw std::runtime_error("python failed: " + answer["error"].toString().toStdString());
        return answer["out"].toString().toStdString();
    }

private:
    void start() {
        const QString loop = "import " + imports_ + "\n" + script_ +
                             "\nimport json as _json, sys as _sys, traceback as _tb\n"
                             "print('ready', flush=True)\n"
                             "for _line in _sys.stdin:\n"
                             "    try:\n"
                             "        _answer = {'out': handle(_json.loads(_line))}\n"
                             "    except BaseException:\n"
                             "        _answer = {'error': _tb.format_exc()}\n"
                             "    print(_json.dumps(_answer), flush=True)\n";
        auto process = std::make_unique<QProcess>();
        process->setProcessChannelMode(QProcess::SeparateChannels);
        process->start("/usr/bin/python3", {"-c", loop});
        while (process->waitForReadyRead(60000))
            if (process->canReadLine()) break;
        if (!process->canReadLine() || process->readLine().trimmed() != "ready") {
            process->kill();
            process->waitForFinished();
            return;
        }
        process_ = std::move(process);
    }

    QString script_, imports_;
    bool checked_ = false;
    std::unique_ptr<QProcess> process_;
};

}  // namespace irscope::test
