#include "widgets/panels/module_tree_model.h"

#include <QLocale>

#include "widgets/common/qt_text.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

using modules::ModuleId;

ModuleTreeModel::ModuleTreeModel(GraphSession* session, QObject* parent)
    : QAbstractItemModel(parent), session_(session) {
    connect(session_, &GraphSession::graphLoaded, this, &ModuleTreeModel::reset);
    connect(session_->decorations(), &GraphDecorations::decorationsChanged, this, [this] {
        if (!tree_ || tree_->size() == 0) return;
        // Status and time only: the view repaints the visible rows.
        emit dataChanged(index(0, Status), index(rowCount() - 1, Time));
        emit headerDataChanged(Qt::Horizontal, Status, Time);
    });
    reset();
}

void ModuleTreeModel::reset() {
    beginResetModel();
    tree_ = session_->moduleTree();
    const size_t n = tree_ ? tree_->size() : 0;
    rows_.assign(n, {});
    rowsReady_.assign(n, 0);
    rowInParent_.assign(n, -1);
    endResetModel();
}

const std::vector<ModuleId>& ModuleTreeModel::rows(ModuleId parent) const {
    auto& r = rows_[static_cast<size_t>(parent)];
    if (!rowsReady_[static_cast<size_t>(parent)]) {
        rowsReady_[static_cast<size_t>(parent)] = 1;
        for (ModuleId c : tree_->module(parent).children)
            if (tree_->module(c).opCount > 0) {
                rowInParent_[static_cast<size_t>(c)] = static_cast<int>(r.size());
                r.push_back(c);
            }
    }
    return r;
}

QModelIndex ModuleTreeModel::indexOf(ModuleId id) const {
    if (!tree_ || id < 0 || id >= static_cast<ModuleId>(tree_->size())) return {};
    if (id == modules::kRootModule) return createIndex(0, 0, quintptr(0));
    const ModuleId parent = tree_->module(id).parent;
    rows(parent);  // fills rowInParent_ for id
    const int row = rowInParent_[static_cast<size_t>(id)];
    return row < 0 ? QModelIndex() : createIndex(row, 0, quintptr(id));
}

ModuleId ModuleTreeModel::moduleAt(const QModelIndex& index) const {
    return index.isValid() ? static_cast<ModuleId>(index.internalId()) : modules::kNoModule;
}

QModelIndex ModuleTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!tree_ || row < 0 || column < 0 || column >= ColumnCount) return {};
    if (!parent.isValid()) return row == 0 ? createIndex(0, column, quintptr(0)) : QModelIndex();  // the model itself
    const auto& r = rows(moduleAt(parent));
    if (row >= static_cast<int>(r.size())) return {};
    return createIndex(row, column, quintptr(r[static_cast<size_t>(row)]));
}

QModelIndex ModuleTreeModel::parent(const QModelIndex& child) const {
    const ModuleId id = moduleAt(child);
    if (!tree_ || id <= 0) return {};
    return indexOf(tree_->module(id).parent);
}

int ModuleTreeModel::rowCount(const QModelIndex& parent) const {
    if (!tree_) return 0;
    if (!parent.isValid()) return 1;
    if (parent.column() != 0) return 0;
    return static_cast<int>(rows(moduleAt(parent)).size());
}

int ModuleTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant ModuleTreeModel::data(const QModelIndex& index, int role) const {
    const ModuleId id = moduleAt(index);
    if (!tree_ || id < 0) return {};
    const auto& m = tree_->module(id);
    if (role == kModuleIdRole) return QVariant::fromValue<qint64>(id);
    if (role == Qt::TextAlignmentRole &&
        ((index.column() >= Ops && index.column() <= Parameters) || index.column() == Time))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Name) return m.path.empty() ? tr("the model") : q(m.path);
    if (role != Qt::DisplayRole) return {};
    const QLocale locale;
    switch (index.column()) {
    case Name: return id == modules::kRootModule ? tr("(model)") : q(m.name);
    case Kind: {
        const auto* kinds = session_->moduleKinds();
        return kinds ? q((*kinds)[static_cast<size_t>(id)]) : QVariant();
    }
    case Ops: return locale.toString(static_cast<qlonglong>(m.opCount));
    case Weights: return locale.toString(static_cast<qlonglong>(m.weightCount));
    case Parameters: return locale.toString(static_cast<qlonglong>(m.parameterCount));
    case Status: {
        const auto* d = session_->decorations()->moduleStatus(id);
        return d ? *d : QString();
    }
    case Time: {
        const double s = session_->decorations()->moduleSeconds(id);
        if (s <= 0) return QString();
        return s < 1e-3 ? QStringLiteral("%1 µs").arg(s * 1e6, 0, 'f', 0)
                        : QStringLiteral("%1 ms").arg(s * 1e3, 0, 'f', 2);
    }
    default: return {};
    }
}

QVariant ModuleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name: return tr("Module");
    case Kind: return tr("Kind");
    case Ops: return tr("Ops");
    case Weights: return tr("Weights");
    case Parameters: return tr("Parameters");
    case Status: return tr("Run");
    case Time: return tr("Time");
    default: return {};
    }
}

}  // namespace irscope::widgets
