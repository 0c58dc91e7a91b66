// DebugController's Extract as runnable IR: the cut (core/exec/repro), run
// up to when it must be, and the `irscope run` command that reruns it.
#include "widgets/session/debug_controller.h"

#include <limits>
#include <span>

#include <QRegularExpression>

#include "core/exec/repro/repro_extract.h"
#include "core/ir/archive_path.h"
#include "core/ir/file_replace.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/loaded_document.h"

namespace irscope::widgets {

namespace {

// A path as a POSIX shell reads it back: bare when it is plain, else in single quotes.
QString shellWord(const QString& word) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./+=:,@%-]+$"));
    if (plain.match(word).hasMatch()) return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

}  // namespace

void DebugController::extract(std::vector<int64_t> nodes, const QString& path) {
    if (!dbg_ || running_) return;
    // The command that reruns the extract on this session's files, as
    // `irscope extract` prints it.
    QStringList rerun;
    const QString weights = values_->path(exec::ValueFile::Weights),
                  constants = values_->path(exec::ValueFile::Constants);
    if (!weights.isEmpty()) rerun << QStringLiteral("--weights") << shellWord(weights);
    if (values_->castWeights()) rerun << QStringLiteral("--cast-weights");
    if (!constants.isEmpty()) rerun << QStringLiteral("--constants") << shellWord(constants);
    // From a .pt2, a cut holding control flow is written as a program of its own.
    const std::string archive =
        doc_ && ir::isArchivePath(doc_->path.toStdString()) ? doc_->path.toStdString() : std::string();
    post({},
         [this, nodes = std::move(nodes), p = path.toStdString(), rerun,
          archive](exec::Debugger& d) mutable -> Continuation {
             QString error, message, command;
             try {
                 const exec::Extracted e = exec::extractRepro(d, std::move(nodes), p, archive);
                 message = tr("extracted %1 nodes (%2 inputs, %3 outputs) to %4")
                               .arg(e.nodes)
                               .arg(e.inputs.size())
                               .arg(e.outputs.size())
                               .arg(q(e.irPath));
                 message += e.note.empty()
                                ? tr(" with the values at the cut: %1, %2").arg(q(e.inputsPath), q(e.expectedPath))
                                : QStringLiteral("; ") + q(e.note);
                 if (!e.inputsPath.empty() && !e.expectedPath.empty())
                     command = (QStringList{QStringLiteral("irscope run"), shellWord(q(e.irPath))} +
                                (e.irPath.ends_with(".pt2") ? QStringList{} : rerun) +  // a program holds its weights
                                QStringList{QStringLiteral("--inputs"), shellWord(q(e.inputsPath)),
                                            QStringLiteral("--expected"), shellWord(q(e.expectedPath))})
                                   .join(QLatin1Char(' '));
             } catch (const std::exception& e) {
                 error = tr("Extract: %1").arg(q(e.what()));
             }
             auto s = std::make_shared<Snapshot>(snapshot(d, false));
             return [this, s, error, message, command] {
                 apply(std::move(*s));
                 emit progress(cursor_, nodeCount(), 0);  // it may have run up to the selection
                 if (!error.isEmpty()) {
                     emit errorOccurred(error);
                     return;
                 }
                 lastStatus_ = message;
                 emit stopped(message, false);
                 emit extracted(message, command);
             };
         });
}

}  // namespace irscope::widgets
