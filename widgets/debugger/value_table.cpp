#include "widgets/debugger/value_table.h"

#include <QHeaderView>
#include <QTableView>

#include "widgets/common/qt_text.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/tensor_queries.h"

namespace irscope::widgets {

QTableView* makeValueTable(QWidget* parent, QAbstractItemModel* model) {
    auto* t = new QTableView(parent);
    t->setModel(model);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setAlternatingRowColors(true);
    t->setSortingEnabled(true);
    // Qt starts a sortable header descending; names read top-down, as people count.
    t->sortByColumn(0, Qt::AscendingOrder);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(20);
    t->horizontalHeader()->setStretchLastSection(true);
    // Fitting the columns to their contents reads the first 1,000 rows of
    // every column by default: 80 ms of the UI thread each time a 70,000-row
    // state_dict's rows arrive. A hundred rows show the widths as well.
    t->horizontalHeader()->setResizeContentsPrecision(100);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return t;
}

void showWeightRow(DebugController* c, const exec::WeightRow& r) {
    const QString name = q(r.placeholder.empty() ? r.originalName : r.placeholder);
    if (!r.placeholder.empty()) {
        int64_t wi = -1;
        if (const LoadedDocument* doc = c->session()->document())
            for (size_t i = 0; i < doc->graph.weights.size(); ++i)
                if (doc->graph.weights[i].name == r.originalName) wi = static_cast<int64_t>(i);
        c->session()->selectionModel()->select(ItemRef::weight(name, wi), true);
    }
    c->tensors()->showTensor(name);
}

QString tensorFileFilter() {
    return QStringLiteral("Tensor files (*.pt *.pth *.bin *.safetensors *.npy *.index.json);;All files (*)");
}

}  // namespace irscope::widgets
