#include "widgets/common/qt_text.h"
#include "widgets/debugger/debugger_panels.h"

#include "widgets/debugger/remedy_text.h"

#include <QAbstractTableModel>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSortFilterProxyModel>

#include "core/modules/module_tree.h"
#include <QSpinBox>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/exec/debugger.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"

namespace irscope::widgets {

namespace {

QColor statusColor(exec::WeightStatus s) {
    switch (s) {
    case exec::WeightStatus::Missing: return QColor("#d0302a");
    case exec::WeightStatus::ShapeMismatch:
    case exec::WeightStatus::DTypeMismatch: return QColor("#c06000");
    case exec::WeightStatus::UnusedInFile: return QColor("#808080");
    case exec::WeightStatus::Entered: return QColor("#2060c0");
    default: return QColor("#2a8a3a");
    }
}

const QString kTensorFilter = QStringLiteral("Tensor files (*.pt *.pth *.bin *.safetensors *.npy);;All files (*)");

}  // namespace

// ------------------------------------------------------------------ WeightsModel

class WeightsModel : public QAbstractTableModel {
public:
    enum Col { Placeholder, Original, Kind, IrShape, IrDtype, LoadedShape, LoadedDtype, Status, Source, Count };
    explicit WeightsModel(DebugController* c, QObject* parent) : QAbstractTableModel(parent), c_(c) {}
    void refresh() {
        beginResetModel();
        rows_ = c_->weightRows();
        endResetModel();
    }
    const exec::WeightRow& row(int r) const { return rows_[r]; }
    int rowCount(const QModelIndex& p = {}) const override { return p.isValid() ? 0 : (int)rows_.size(); }
    int columnCount(const QModelIndex& p = {}) const override { return p.isValid() ? 0 : Count; }
    QVariant headerData(int s, Qt::Orientation o, int role) const override {
        if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
        static const char* names[] = {"Placeholder", "Original name", "Kind", "IR shape", "IR dtype",
                                      "Loaded shape", "Loaded dtype", "Status", "Source"};
        return QString::fromLatin1(names[s]);
    }
    QVariant data(const QModelIndex& i, int role) const override {
        const auto& r = rows_[i.row()];
        if (role == Qt::DisplayRole) {
            switch (i.column()) {
            case Placeholder: return r.placeholder.empty() ? QStringLiteral("—") : q(r.placeholder);
            case Original: return q(r.originalName);
            case Kind: return r.kind == '?' ? QStringLiteral("—") : QString(QLatin1Char(r.kind)) + QLatin1Char('_');
            case IrShape: return r.irDtype.empty() && r.irShape.empty() ? QString() : shapeText(r.irShape);
            case IrDtype: return q(r.irDtype);
            case LoadedShape: return r.hasValue() ? shapeText(r.loadedShape) : QString();
            case LoadedDtype: return q(r.loadedDtype);
            case Status: return q(exec::weightStatusName(r.status)) + (r.used || r.placeholder.empty() ? QString() : tr(" (unused)"));
            case Source: return QFileInfo(q(r.source)).fileName().isEmpty() ? q(r.source) : QFileInfo(q(r.source)).fileName();
            }
        } else if (role == Qt::ForegroundRole && i.column() == Status) {
            return statusColor(r.status);
        } else if (role == Qt::ToolTipRole) {
            return r.message.empty() ? q(r.source) : weightRowMessage(r);
        } else if (role == Qt::UserRole) {
            return static_cast<int>(r.status);
        }
        return {};
    }

private:
    static QString tr(const char* s) { return QString::fromLatin1(s); }
    DebugController* c_;
    std::vector<exec::WeightRow> rows_;
};

namespace {

// Filters weight rows: by status group, and (constants panel) constant-like rows only.
class WeightFilter : public QSortFilterProxyModel {
public:
    WeightFilter(WeightsModel* m, bool constantsOnly, QObject* parent)
        : QSortFilterProxyModel(parent), m_(m), constantsOnly_(constantsOnly) {
        setSourceModel(m);
    }
    void setMode(int mode) {
        mode_ = mode;
        invalidateFilter();
    }

protected:
    // Names compare as people count (layers.9 before layers.10), on the rows'
    // own strings: no QString per comparison, so 70,000 rows sort at once.
    bool lessThan(const QModelIndex& a, const QModelIndex& b) const override {
        if (a.column() == WeightsModel::Placeholder || a.column() == WeightsModel::Original) {
            const auto& x = m_->row(a.row());
            const auto& y = m_->row(b.row());
            return a.column() == WeightsModel::Placeholder ? modules::naturalLess(x.placeholder, y.placeholder)
                                                           : modules::naturalLess(x.originalName, y.originalName);
        }
        return QSortFilterProxyModel::lessThan(a, b);
    }

    bool filterAcceptsRow(int r, const QModelIndex&) const override {
        const auto& w = m_->row(r);
        if (constantsOnly_ && !w.constantLike) return false;
        using S = exec::WeightStatus;
        switch (mode_) {
        case 1: return w.status == S::Missing || w.status == S::ShapeMismatch || w.status == S::DTypeMismatch || w.status == S::UnusedInFile;
        case 2: return w.status == S::Loaded || w.status == S::FromIr || w.status == S::FromConstants || w.status == S::Entered;
        case 3: return w.status == S::Missing;
        case 4: return w.status == S::ShapeMismatch;
        case 5: return w.status == S::DTypeMismatch;
        case 6: return w.status == S::UnusedInFile;
        case 7: return w.constantLike;
        default: return true;
        }
    }

private:
    WeightsModel* m_;
    bool constantsOnly_;
    int mode_ = 0;
};

QTableView* makeTable(QWidget* parent, QAbstractItemModel* model) {
    auto* t = new QTableView(parent);
    t->setModel(model);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setAlternatingRowColors(true);
    t->setSortingEnabled(true);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(20);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return t;
}

void selectWeight(DebugController* c, const exec::WeightRow& r) {
    const QString name = q(r.placeholder.empty() ? r.originalName : r.placeholder);
    if (!r.placeholder.empty()) {
        int64_t wi = -1;
        if (const LoadedDocument* doc = c->session()->document())
            for (size_t i = 0; i < doc->graph.weights.size(); ++i)
                if (doc->graph.weights[i].name == r.originalName) wi = static_cast<int64_t>(i);
        c->session()->select(ItemRef::weight(name, wi), true);
    }
    c->showTensor(name);
}

}  // namespace

// ------------------------------------------------------------------ WeightsPanel

WeightsPanel::WeightsPanel(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("weightsPanel"));
    model_ = new WeightsModel(c, this);
    auto* proxy = new WeightFilter(model_, false, this);
    proxy_ = proxy;
    table_ = makeTable(this, proxy_);
    table_->setObjectName(QStringLiteral("weightsTable"));
    filter_ = new QComboBox(this);
    filter_->setObjectName(QStringLiteral("weightsFilter"));
    filter_->addItems({tr("All"), tr("Problems"), tr("Has value"), tr("Missing"), tr("Shape mismatch"),
                       tr("Dtype mismatch"), tr("Unused in file"), tr("Constants")});
    auto* load = new QPushButton(tr("Load weights…"), this);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(load);
    top->addWidget(new QLabel(tr("Show:"), this));
    top->addWidget(filter_);
    top->addStretch(1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(top);
    lay->addWidget(summary_);
    lay->addWidget(table_, 1);

    connect(load, &QPushButton::clicked, this, &WeightsPanel::loadDialog);
    connect(filter_, &QComboBox::currentIndexChanged, this, [proxy](int i) { proxy->setMode(i); });
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) {
        selectWeight(c_, model_->row(proxy_->mapToSource(i).row()));
    });
    auto refresh = [this] {
        model_->refresh();
        table_->resizeColumnsToContents();
        int counts[8] = {};
        for (const auto& r : c_->weightRows()) counts[static_cast<int>(r.status)]++;
        const QString file = c_->weightsPath().isEmpty() ? tr("no state_dict loaded")
                                                         : QFileInfo(c_->weightsPath()).fileName();
        using S = exec::WeightStatus;
        // Missing is only an alarm once a state_dict is loaded (see MissingRow::awaitsStateDict).
        const QString missingFormat = c_->weightsPath().isEmpty() || counts[(int)S::Missing] == 0
                                          ? tr("%4 missing")
                                          : tr("<b style='color:#d0302a'>%4 missing</b>");
        const QString format = tr("%1 — %2 loaded, %3 from constants, ") + missingFormat +
                               tr(", %5 shape / %6 dtype mismatch, %7 unused in file");
        auto n = [](int v) { return QString::number(v); };
        // One multi-argument arg(): a file name containing "%2" is not substituted into.
        summary_->setText(format.arg(file, n(counts[(int)S::Loaded]),
                                     n(counts[(int)S::FromIr] + counts[(int)S::FromConstants] + counts[(int)S::Entered]),
                                     n(counts[(int)S::Missing]), n(counts[(int)S::ShapeMismatch]),
                                     n(counts[(int)S::DTypeMismatch]), n(counts[(int)S::UnusedInFile])));
    };
    connect(c_, &DebugController::valuesChanged, this, refresh);
    connect(c_, &DebugController::debuggerReset, this, refresh);
    refresh();
}

int WeightsPanel::visibleRows() const { return proxy_->rowCount(); }

void WeightsPanel::loadDialog() {
    const QString f = QFileDialog::getOpenFileName(this, tr("Load state_dict"), QString(), kTensorFilter);
    if (!f.isEmpty()) c_->loadWeights(f);
}

// ------------------------------------------------------------------ ConstantsPanel

ConstantsPanel::ConstantsPanel(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("constantsPanel"));
    model_ = new WeightsModel(c, this);
    proxy_ = new WeightFilter(model_, true, this);
    table_ = makeTable(this, proxy_);
    table_->setObjectName(QStringLiteral("constantsTable"));
    name_ = new QComboBox(this);
    name_->setObjectName(QStringLiteral("constantName"));
    name_->setEditable(true);
    name_->setMinimumContentsLength(12);
    value_ = new QLineEdit(this);
    value_->setObjectName(QStringLiteral("constantValue"));
    value_->setPlaceholderText(tr("value, e.g. [1, 0, 1, 0]"));
    dtype_ = new QComboBox(this);
    dtype_->setObjectName(QStringLiteral("constantDtype"));
    for (const auto& d : exec::enterableDtypes()) dtype_->addItem(q(d));
    set_ = new QPushButton(tr("Set"), this);
    set_->setObjectName(QStringLiteral("constantSet"));
    auto* clear = new QPushButton(tr("Clear"), this);
    auto* load = new QPushButton(tr("Load constants…"), this);
    auto* save = new QPushButton(tr("Save entered…"), this);
    save->setToolTip(tr("Write the constants from the file and those entered here to a .pt/.safetensors file "
                        "(the IR itself is never modified)"));
    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("constantMessage"));
    message_->setWordWrap(true);

    auto* top = new QHBoxLayout;
    top->addWidget(load);
    top->addWidget(save);
    top->addStretch(1);
    auto* edit = new QHBoxLayout;
    edit->addWidget(name_);
    edit->addWidget(value_, 1);
    edit->addWidget(dtype_);
    edit->addWidget(set_);
    edit->addWidget(clear);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(top);
    lay->addWidget(table_, 1);
    lay->addLayout(edit);
    lay->addWidget(message_);

    auto apply = [this] {
        if (name_->currentText().isEmpty() || value_->text().trimmed().isEmpty()) return;
        message_->setText(tr("Setting %1…").arg(name_->currentText()));
        c_->enterConstant(name_->currentText(), value_->text(), dtype_->currentText());
    };
    connect(set_, &QPushButton::clicked, this, apply);
    connect(value_, &QLineEdit::returnPressed, this, apply);
    connect(clear, &QPushButton::clicked, this, [this] { c_->clearConstant(name_->currentText()); });
    connect(load, &QPushButton::clicked, this, &ConstantsPanel::loadDialog);
    connect(save, &QPushButton::clicked, this, &ConstantsPanel::saveDialog);
    connect(c_, &DebugController::constantEntered, this, [this](bool ok, const QString& m) {
        message_->setStyleSheet(ok && !m.startsWith(tr("Warning")) ? QString() : QStringLiteral("color:#d0302a"));
        message_->setText(m);
    });
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) {
        const auto& r = model_->row(proxy_->mapToSource(i).row());
        name_->setCurrentText(q(r.originalName));
        if (!r.irDtype.empty()) dtype_->setCurrentText(q(r.irDtype));
        selectWeight(c_, r);
    });
    connect(c_, &DebugController::valuesChanged, this, &ConstantsPanel::rebuild);
    connect(c_, &DebugController::debuggerReset, this, &ConstantsPanel::rebuild);
    rebuild();
}

void ConstantsPanel::rebuild() {
    model_->refresh();
    table_->resizeColumnsToContents();
    const QString keep = name_->currentText();
    name_->clear();
    QString firstMissing, firstDtype;
    for (const auto& r : c_->weightRows()) {
        if (!r.constantLike || r.status == exec::WeightStatus::UnusedInFile) continue;
        name_->addItem(q(r.originalName));
        if (firstMissing.isEmpty() && r.status == exec::WeightStatus::Missing) {
            firstMissing = q(r.originalName);
            firstDtype = q(r.irDtype);
        }
    }
    if (!keep.isEmpty()) name_->setCurrentText(keep);
    else if (!firstMissing.isEmpty()) {
        name_->setCurrentText(firstMissing);
        if (!firstDtype.isEmpty()) dtype_->setCurrentText(firstDtype);
    }
}

void ConstantsPanel::loadDialog() {
    const QString f = QFileDialog::getOpenFileName(this, tr("Load constants"), QString(), kTensorFilter);
    if (!f.isEmpty()) c_->loadConstants(f);
}

void ConstantsPanel::saveDialog() {
    const QString f = QFileDialog::getSaveFileName(this, tr("Save constants"), QStringLiteral("constants.pt"),
                                                   QStringLiteral("PyTorch (*.pt);;safetensors (*.safetensors)"));
    if (f.isEmpty()) return;
    const QString err = c_->saveConstants(f);
    message_->setStyleSheet(err.isEmpty() ? QString() : QStringLiteral("color:#d0302a"));
    message_->setText(err.isEmpty() ? tr("Saved %1").arg(f) : err);
}

// ------------------------------------------------------------------ InputsPanel

class InputsModel : public QAbstractTableModel {
public:
    explicit InputsModel(DebugController* c, QObject* p) : QAbstractTableModel(p), c_(c) {}
    void refresh() {
        beginResetModel();
        rows_ = c_->inputRows();
        endResetModel();
    }
    int rowCount(const QModelIndex& p = {}) const override { return p.isValid() ? 0 : (int)rows_.size(); }
    int columnCount(const QModelIndex& p = {}) const override { return p.isValid() ? 0 : 6; }
    QVariant headerData(int s, Qt::Orientation o, int role) const override {
        if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
        static const char* n[] = {"Input", "IR shape", "IR dtype", "Source", "Value", "Problem"};
        return QString::fromLatin1(n[s]);
    }
    QVariant data(const QModelIndex& i, int role) const override {
        const auto& r = rows_[i.row()];
        if (role == Qt::DisplayRole) {
            switch (i.column()) {
            case 0: return q(r.name);
            case 1: return shapeText(r.irShape);
            case 2: return q(r.irDtype);
            case 3: return q(exec::inputSourceName(r.source));
            case 4: return r.loadedDtype.empty() ? QStringLiteral("—") : shapeText(r.loadedShape) + QLatin1Char(' ') + q(r.loadedDtype);
            case 5: return q(r.problem);
            }
        } else if (role == Qt::ForegroundRole && i.column() == 5) {
            return QColor("#d0302a");
        }
        return {};
    }
    const exec::InputRow& row(int r) const { return rows_[r]; }

private:
    DebugController* c_;
    std::vector<exec::InputRow> rows_;
};

InputsPanel::InputsPanel(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("inputsPanel"));
    model_ = new InputsModel(c, this);
    table_ = makeTable(this, model_);
    table_->setSortingEnabled(false);
    table_->setObjectName(QStringLiteral("inputsTable"));
    source_ = new QComboBox(this);
    source_->setObjectName(QStringLiteral("inputSource"));
    source_->addItems({tr("random"), tr("zeros"), tr("ones"), tr("file")});
    seed_ = new QSpinBox(this);
    seed_->setObjectName(QStringLiteral("inputSeed"));
    seed_->setRange(0, 1 << 30);
    seed_->setPrefix(tr("seed "));
    auto* load = new QPushButton(tr("Load inputs…"), this);
    auto* all = new QPushButton(tr("All"), this);
    all->setToolTip(tr("Use this source for every input"));
    auto* exp = new QPushButton(tr("Expected outputs…"), this);
    auto* inter = new QPushButton(tr("Reference intermediates…"), this);
    auto* diverge = new QPushButton(tr("Go to first divergence"), this);
    diverge->setObjectName(QStringLiteral("goToDivergence"));
    refs_ = new QLabel(this);
    refs_->setWordWrap(true);
    divergence_ = new QLabel(this);
    divergence_->setObjectName(QStringLiteral("divergenceLabel"));
    divergence_->setWordWrap(true);

    auto* srcRow = new QHBoxLayout;
    srcRow->addWidget(new QLabel(tr("Source:"), this));
    srcRow->addWidget(source_);
    srcRow->addWidget(all);
    srcRow->addWidget(seed_);
    srcRow->addWidget(load);
    srcRow->addStretch(1);
    auto* refRow = new QHBoxLayout;
    refRow->addWidget(exp);
    refRow->addWidget(inter);
    refRow->addWidget(diverge);
    refRow->addStretch(1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(srcRow);
    lay->addWidget(table_, 1);
    lay->addLayout(refRow);
    lay->addWidget(refs_);
    lay->addWidget(divergence_);

    auto selectedInput = [this]() -> QString {
        const auto idx = table_->currentIndex();
        return idx.isValid() ? q(model_->row(idx.row()).name) : QString();
    };
    connect(source_, &QComboBox::activated, this, [this, selectedInput](int i) {
        const QString in = selectedInput();
        if (!in.isEmpty()) c_->setInputSource(in, static_cast<exec::InputSource>(i));
        else c_->setAllInputSources(static_cast<exec::InputSource>(i));
    });
    connect(all, &QPushButton::clicked, this, [this] { c_->setAllInputSources(static_cast<exec::InputSource>(source_->currentIndex())); });
    connect(seed_, &QSpinBox::valueChanged, this, [this](int v) { c_->setSeed(v); });
    connect(load, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Load inputs"), QString(), kTensorFilter);
        if (!f.isEmpty()) c_->loadInputs(f);
    });
    connect(exp, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Load expected outputs"), QString(), kTensorFilter);
        if (!f.isEmpty()) c_->loadExpected(f);
    });
    connect(inter, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Load reference intermediates"), QString(), kTensorFilter);
        if (!f.isEmpty()) c_->loadReferenceIntermediates(f);
    });
    connect(diverge, &QPushButton::clicked, c_, &DebugController::goToFirstDivergence);
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) {
        const auto& r = model_->row(i.row());
        source_->setCurrentIndex(static_cast<int>(r.source));
        if (const LoadedDocument* doc = c_->session()->document())
            for (size_t k = 0; k < doc->graph.graphInputs.size(); ++k)
                if (doc->graph.graphInputs[k].name == r.name) c_->session()->select(ItemRef::graphInput(k, q(r.name)), true);
        c_->showTensor(q(r.name));
    });
    connect(c_, &DebugController::divergenceChanged, this, [this] {
        const auto& d = c_->divergence();
        divergence_->setStyleSheet(d.found ? QStringLiteral("color:#d0302a") : QString());
        divergence_->setText(q(d.message));
    });
    connect(c_, &DebugController::valuesChanged, this, &InputsPanel::rebuild);
    connect(c_, &DebugController::debuggerReset, this, &InputsPanel::rebuild);
    rebuild();
}

void InputsPanel::rebuild() {
    model_->refresh();
    table_->resizeColumnsToContents();
    auto name = [](const QString& p) { return p.isEmpty() ? tr("none") : QFileInfo(p).fileName(); };
    refs_->setText(tr("Inputs file: %1 · Expected outputs: %2 · Reference intermediates: %3")
                       .arg(name(c_->inputsPath()), name(c_->expectedPath()), name(c_->intermediatesPath())));
    const QSignalBlocker b(seed_);
    seed_->setValue(static_cast<int>(c_->seed()));
}

// ------------------------------------------------------------------ ExecInfoPanel

ExecInfoPanel::ExecInfoPanel(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("execInfoPanel"));
    text_ = new QTextBrowser(this);
    text_->setObjectName(QStringLiteral("execInfoText"));
    text_->setMaximumHeight(150);
    text_->setFrameShape(QFrame::NoFrame);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("<b>Execution</b>"), this);
    lay->addWidget(title);
    lay->addWidget(text_);
    connect(c_, &DebugController::nodeStatesChanged, this, &ExecInfoPanel::rebuild);
    connect(c_->session(), &GraphSession::selectionChanged, this, &ExecInfoPanel::rebuild);
    connect(c_, &DebugController::debuggerReset, this, &ExecInfoPanel::rebuild);
    rebuild();
}

QString ExecInfoPanel::text() const { return text_->toPlainText(); }

void ExecInfoPanel::rebuild() {
    const ItemRef sel = c_->session()->selection();
    const auto& infos = c_->nodeInfos();
    if (!sel.isNode() || sel.index < 0 || sel.index >= (int64_t)infos.size()) {
        text_->setHtml(tr("<i>Select a node to see its run state, time and output size.</i>"));
        return;
    }
    const auto& i = infos[sel.index];
    QString state = q(exec::nodeStateName(i.state));
    if (i.current) state = tr("current (next to run)");
    QString html = tr("<table><tr><td>State</td><td><b>%1</b>%2</td></tr>").arg(state, i.breakpoint ? tr(" · breakpoint") : QString());
    if (i.state != exec::NodeState::Pending) {
        const double ms = i.seconds * 1e3;
        html += tr("<tr><td>Time</td><td>%1 ms</td></tr>").arg(ms, 0, 'f', ms < 1 ? 4 : 2);
        html += tr("<tr><td>Output size</td><td>%1</td></tr>").arg(q(exec::formatBytes(i.outputBytes)));
    }
    html += QStringLiteral("</table>");
    if (i.needsMissing) html += tr("<p style='color:#d0302a'>Reads a value that is missing (see Diagnostics).</p>");
    if (!i.error.empty()) html += tr("<p style='color:#d0302a'><b>Failed:</b> %1</p>").arg(q(i.error).toHtmlEscaped());
    for (const auto& d : i.diagnostics) html += QStringLiteral("<p style='color:#c06000'>%1</p>").arg(q(d).toHtmlEscaped());
    text_->setHtml(html);
}

// ------------------------------------------------------------------ MissingValuesPanel

MissingValuesPanel::MissingValuesPanel(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("missingValuesPanel"));
    title_ = new QLabel(this);
    title_->setWordWrap(true);   // long lines must not widen the window
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("missingValuesList"));
    list_->setWordWrap(true);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(title_);
    lay->addWidget(list_);
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* it) {
        const int r = it->data(Qt::UserRole).toInt();   // index into missing()
        if (r < 0 || r >= (int)c_->missing().size()) return;
        const auto& m = c_->missing()[r];
        if (!m.value.nodes.empty()) c_->session()->selectNodeByName(q(m.value.nodes.front()), true);
    });
    connect(c_, &DebugController::valuesChanged, this, &MissingValuesPanel::rebuild);
    connect(c_, &DebugController::debuggerReset, this, &MissingValuesPanel::rebuild);
    rebuild();
}

void MissingValuesPanel::rebuild() {
    list_->clear();
    const auto& m = c_->missing();
    setVisible(!m.empty());
    // Values only a state_dict can supply are no alarm while none is loaded: one
    // neutral line for them, red rows for what a state_dict can never supply.
    int awaiting = 0;
    for (const auto& r : m) awaiting += r.awaitsStateDict ? 1 : 0;
    const int alarming = static_cast<int>(m.size()) - awaiting;
    QString title;
    if (alarming > 0)
        title = tr("<b style='color:#d0302a'>Pre-flight: %n value(s) missing</b> — the run cannot start until they are supplied",
                   nullptr, alarming);
    if (awaiting > 0)
        title += (title.isEmpty() ? QString() : QStringLiteral("<br>")) +
                 tr("No state_dict loaded: %n parameter(s)/buffer(s) will come from one (Weights dock › Load weights, "
                    "or --weights FILE)", nullptr, awaiting);
    title_->setText(title);
    for (size_t i = 0; i < m.size(); ++i) {
        const auto& r = m[i];
        if (r.awaitsStateDict) continue;
        auto* it = new QListWidgetItem(missingText(r), list_);
        it->setData(Qt::UserRole, static_cast<int>(i));
        it->setForeground(QColor("#d0302a"));
        it->setToolTip(remedyText(r));
    }
    list_->setVisible(list_->count() > 0);
}

}  // namespace irscope::widgets
