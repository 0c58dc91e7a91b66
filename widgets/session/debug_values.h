#pragma once
// DebugValues: where the run's values come from, one facet of the debugger
// session (DebugController holds it: values()). The state_dict, constants,
// inputs, expected outputs and reference intermediates read from files on
// the run lane behind a progress bar with Cancel (with ~70,000 weights the
// read takes seconds; until it ends the panels say "Loading weights… N%"
// rather than count every weight as missing), constants typed by hand,
// input sources and the seed, casting the weights to the IR's dtypes; and
// the rows the Weights, Constants, Inputs and Missing panels show, from the
// controller's snapshots.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <QObject>
#include <QString>
#include <QStringList>

#include "core/exec/debugger/debugger.h"

namespace irscope::widgets {

class DebugController;

class DebugValues : public QObject {
    Q_OBJECT
public:
    explicit DebugValues(DebugController& controller);

    // ---- the rows (UI thread; replaced, never changed, by each snapshot)
    const std::vector<exec::WeightRow>& weightRows() const { return *weightRows_; }
    // The same rows, shared: a model keeps them without copying 70,000 rows
    // on the UI thread.
    std::shared_ptr<const std::vector<exec::WeightRow>> sharedWeightRows() const { return weightRows_; }
    const std::vector<exec::InputRow>& inputRows() const { return inputRows_; }
    const std::vector<exec::MissingRow>& missing() const { return missing_; }

    // ---- the sources, as the core holds them ("" / empty / 0 without a document)
    QString path(exec::ValueFile file) const;
    QStringList enteredConstants() const;
    // Typed constants not yet saved to a file (Save Constants).
    bool constantsUnsaved() const {
        const QStringList typed = enteredConstants();
        return !typed.isEmpty() && typed != savedConstants_;
    }
    int64_t seed() const;
    // Whether the state_dict is cast to the IR's dtypes (read from the core).
    bool castWeights() const;

    // ---- files being read
    struct ValuesLoad {
        exec::ValueFile file = exec::ValueFile::Weights;
        QString path;
        int percent = 0;
    };
    bool isLoadingValues() const { return !queuedLoads_.empty(); }
    // The load being read now (the first of those queued); only while isLoadingValues().
    const ValuesLoad& valuesLoad() const { return queuedLoads_.front().load; }

    // A tensor file of values, read on the run lane with progress
    // (valuesLoadChanged); a failure goes out through the controller's errorOccurred.
    void load(exec::ValueFile file, const QString& path);
    // Stops every value file still loading or queued; the values stay as they were.
    void cancelValuesLoad();
    void loadWeights(const QString& path) { load(exec::ValueFile::Weights, path); }
    void loadConstants(const QString& path) { load(exec::ValueFile::Constants, path); }
    void loadInputs(const QString& path) { load(exec::ValueFile::Inputs, path); }
    void loadExpected(const QString& path) { load(exec::ValueFile::Expected, path); }
    void loadReferenceIntermediates(const QString& path) { load(exec::ValueFile::ReferenceIntermediates, path); }
    // Another graph's run (a dump) as the reference, renamed to this graph's
    // tensor names: (name in the file, name here) pairs from a comparison.
    void loadRenamedReference(const QString& path, std::vector<std::pair<std::string, std::string>> renames);

    // ---- by hand
    // Typed constant; constantEntered reports the outcome.
    void enterConstant(const QString& name, const QString& text, const QString& dtype);
    void clearConstant(const QString& name);
    // Written off the UI thread; `done` gets "" or the error.
    void saveConstants(const QString& path, std::function<void(const QString&)> done = {});
    // "Cast weights to the IR's dtypes" (on), or the file's own dtypes again (off).
    void setCastWeights(bool on);
    void setInputSource(const QString& input, exec::InputSource source);
    void setAllInputSources(exec::InputSource source);
    void setSeed(qint64 seed);

signals:
    void valuesChanged();  // rows (weights / constants / inputs / missing) changed
    // A value file started or stopped loading, or its progress moved (valuesLoad()).
    void valuesLoadChanged();
    void valuesLoaded(exec::ValueFile file);      // read and applied without error
    void valuesLoadFailed(exec::ValueFile file);  // not read; errorOccurred says why
    void constantEntered(bool ok, const QString& message);
    void castWeightsChanged(bool on, qint64 castCount);

public:
    // ---- what the controller tells its part (a new document, a snapshot's rows)
    // A new document: its rows come with its first snapshot; nothing of the
    // old one loads on (the lanes were emptied).
    void documentChanged();
    // The rows a snapshot brought (UI thread).
    void takeRows(std::shared_ptr<const std::vector<exec::WeightRow>> weights, std::vector<exec::InputRow> inputs,
                  std::vector<exec::MissingRow> missing);

private:
    void loadWith(std::function<void(exec::Debugger&)> read);
    void finishValuesLoad(const QString& tag);

    DebugController& c_;
    std::shared_ptr<const std::vector<exec::WeightRow>> weightRows_ =
        std::make_shared<const std::vector<exec::WeightRow>>();
    std::vector<exec::InputRow> inputRows_;
    std::vector<exec::MissingRow> missing_;
    struct QueuedLoad {
        QString tag;                                   // its own: no later load replaces it
        std::shared_ptr<std::atomic<bool>> cancelled;  // read by the run lane's job
        ValuesLoad load;
    };
    std::vector<QueuedLoad> queuedLoads_;  // UI thread, in the run lane's order
    uint64_t loadSerial_ = 0;
    QStringList savedConstants_;  // enteredConstants() when they were last saved
};

}  // namespace irscope::widgets
