#include "widgets/common/slice_model.h"

#include <algorithm>
#include <cmath>

#include <QColor>

namespace irscope::widgets {

SliceModel::SliceModel(Source* source, QObject* parent) : QAbstractTableModel(parent), source_(source) {}

bool SliceModel::setSlice(const SliceRef& slice, int64_t rows, int64_t cols, bool integral) {
    // A view shows at most 2^31 rows/cols; QHeaderView copes with millions.
    rows = std::min<int64_t>(rows, 10'000'000);
    cols = std::min<int64_t>(cols, 100'000);
    if (slice == slice_ && rows == rows_ && cols == cols_ && integral == integral_) return false;
    beginResetModel();
    slice_ = slice;
    rows_ = rows;
    cols_ = cols;
    integral_ = integral;
    blocks_.clear();
    dropOutstanding();
    endResetModel();
    emit pendingChanged(0);
    return true;
}

void SliceModel::refetch() {
    if (!rows_ || !cols_) return;
    dropOutstanding();
    // Cached blocks stay on screen (stale) until their new values arrive.
    for (auto& [key, block] : blocks_) block.current = false;
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    emit pendingChanged(0);
}

// Reads asked for the previous slice (or values) must not land in this one.
void SliceModel::dropOutstanding() const {
    pending_.clear();
    source_->dropReads(const_cast<SliceModel*>(this));
}

void SliceModel::setFormat(char format, int precision) {
    format_ = format;
    precision_ = precision;
    if (rows_ && cols_) emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int SliceModel::rowCount(const QModelIndex& p) const { return p.isValid() ? 0 : static_cast<int>(rows_); }
int SliceModel::columnCount(const QModelIndex& p) const { return p.isValid() ? 0 : static_cast<int>(cols_); }

void SliceModel::request(int64_t br, int64_t bc) const {
    const BlockKey key{br, bc};
    if (pending_.count(key)) return;
    auto it = blocks_.find(key);
    if (it != blocks_.end() && it->second.current) return;
    auto* self = const_cast<SliceModel*>(this);
    const int64_t rows = std::min<int64_t>(kBlock, rows_ - br * kBlock);
    const int64_t cols = std::min<int64_t>(kBlock, cols_ - bc * kBlock);
    const bool posted =
        source_->readBlock(self, slice_, br * kBlock, bc * kBlock, rows, cols,
                           [self, key](std::vector<double> values) { self->receive(key, std::move(values)); });
    if (!posted) return;
    pending_.insert(key);
    emit self->pendingChanged(pending_.size());
}

void SliceModel::receive(BlockKey key, std::vector<double> values) {
    pending_.erase(key);
    if (blocks_.size() > 512) blocks_.clear();  // bounded cache
    blocks_[key] = Block{true, std::move(values)};
    const auto [br, bc] = key;
    const int r0 = static_cast<int>(br * kBlock), c0 = static_cast<int>(bc * kBlock);
    const int r1 = static_cast<int>(std::min<int64_t>(rows_, (br + 1) * kBlock)) - 1;
    const int c1 = static_cast<int>(std::min<int64_t>(cols_, (bc + 1) * kBlock)) - 1;
    emit dataChanged(index(r0, c0), index(r1, c1));
    emit pendingChanged(pending_.size());
}

void SliceModel::prefetch(int64_t row0, int64_t col0, int64_t row1, int64_t col1) const {
    if (!rows_ || !cols_ || slice_.tensor.isEmpty()) return;
    row0 = std::clamp<int64_t>(row0, 0, rows_ - 1);
    row1 = std::clamp<int64_t>(row1, 0, rows_ - 1);
    col0 = std::clamp<int64_t>(col0, 0, cols_ - 1);
    col1 = std::clamp<int64_t>(col1, 0, cols_ - 1);
    for (int64_t br = row0 / kBlock; br <= row1 / kBlock; ++br)
        for (int64_t bc = col0 / kBlock; bc <= col1 / kBlock; ++bc) request(br, bc);
}

const SliceModel::Block* SliceModel::blockOf(int row, int col) const {
    if (row < 0 || col < 0 || row >= rows_ || col >= cols_) return nullptr;
    auto it = blocks_.find({row / kBlock, col / kBlock});
    return it == blocks_.end() ? nullptr : &it->second;
}

bool SliceModel::has(int row, int col) const {
    const Block* b = blockOf(row, col);
    return b && b->current;
}

double SliceModel::value(int row, int col) const {
    const Block* b = blockOf(row, col);
    if (!b) return NAN;
    const int64_t br = row / kBlock, bc = col / kBlock;
    const int64_t ncols = std::min<int64_t>(kBlock, cols_ - bc * kBlock);
    const size_t k = static_cast<size_t>((row - br * kBlock) * ncols + (col - bc * kBlock));
    return k < b->values.size() ? b->values[k] : NAN;
}

QVariant SliceModel::data(const QModelIndex& i, int role) const {
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::UserRole && role != Qt::ForegroundRole)
        return {};
    const Block* b = blockOf(i.row(), i.column());
    if (!b || !b->current) request(i.row() / kBlock, i.column() / kBlock);  // async; repainted on arrival
    if (role == Qt::ForegroundRole) return b ? QVariant() : QVariant(QColor(Qt::gray));
    if (!b) return role == Qt::UserRole ? QVariant(NAN) : QVariant(QString::fromUtf8(kPlaceholder));
    const double v = value(i.row(), i.column());
    if (role == Qt::UserRole) return v;
    if (std::isnan(v)) return QStringLiteral("nan");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    if (integral_) return QString::number(static_cast<qlonglong>(v));
    if (role == Qt::ToolTipRole) return QString::number(v, 'g', 17);
    return QString::number(v, format_, precision_);
}

QVariant SliceModel::headerData(int s, Qt::Orientation, int role) const {
    if (role == Qt::DisplayRole) return QString::number(s);
    return {};
}

}  // namespace irscope::widgets
