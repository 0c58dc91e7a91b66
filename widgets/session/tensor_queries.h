#pragma once
// TensorQueries: asking about one tensor, one facet of the debugger session
// (DebugController holds it: tensors()). Which tensor the panels show (the
// focus, set by clicks on the graph and the tables), the queries the tensor
// viewers make of it (summary, histogram, heatmap, compare, slice blocks) on
// the query lane, never on the UI thread and never behind a run: every const
// query of exec::Debugger may run beside a step (see
// core/exec/debugger/debugger.h). Pinning a tensor keeps its value through
// the retention policy; exporting one writes it off the UI thread.
#include <cstdint>
#include <functional>

#include <QObject>
#include <QString>

#include "core/exec/debugger/debugger.h"
#include "widgets/session/item_ref.h"

namespace irscope::widgets {

class DebugController;

class TensorQueries : public QObject {
    Q_OBJECT
public:
    explicit TensorQueries(DebugController& controller);

    using Continuation = std::function<void()>;
    using QueryJob = std::function<Continuation(const exec::Debugger&)>;
    // `job` runs on the query lane and returns a continuation for the UI
    // thread (may be empty), run only while `owner` lives, the document is the
    // same, and no newer query with the same non-empty `key` was made. With an
    // empty key nothing is replaced or dropped. Returns false without a document.
    bool query(const QString& key, QObject* owner, QueryJob job);
    // Forgets `owner`'s queries not answered yet (its view of the tensor changed).
    void dropQueries(QObject* owner);
    bool isQuerying() const;

    // The tensor panels should show (set by clicks on the graph, weights rows, ...).
    QString focusTensor() const { return focusTensor_; }
    void showTensor(const QString& tensor);  // focusTensorChanged
    // The output tensor of a node / the tensor a graph ref stands for.
    QString tensorOf(const ItemRef& ref) const;
    // The node whose output `tensor` is (-1: an input, a weight, unknown).
    int64_t producerOf(const QString& tensor) const;
    void setPinned(const QString& tensor, bool pinned);
    // .npy, .pt or .safetensors by extension, written off the UI thread:
    // `done` gets "" or the error; without `done`, the error goes out
    // through the controller's errorOccurred.
    void exportTensor(const QString& tensor, const QString& path, exec::ValueSide side = exec::ValueSide::Actual,
                      std::function<void(const QString&)> done = {});

    // A new run or document: no tensor is in focus.
    void clearFocus() { focusTensor_.clear(); }

signals:
    void focusTensorChanged(const QString& tensor);

private:
    DebugController& c_;
    QString focusTensor_;
};

}  // namespace irscope::widgets
