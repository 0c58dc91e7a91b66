#include "widgets/panels/properties_panel.h"

#include <algorithm>

#include <QLocale>

#include <QFileInfo>
#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/ir/execution_position.h"
#include "core/ir/graph_index.h"
#include "core/ir/stack_trace.h"
#include "core/ir/symbol_ranges.h"
#include "core/ir/weight_quantization.h"
#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

namespace {

constexpr int kRefRole = Qt::UserRole + 1;

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString tensorSummary(const ir::TensorMeta& t) {
    return QStringLiteral("%1  %2").arg(qs(ir::shapeToList(t.shape)),
                                        t.hasDtype() ? qs(t.dtype) : QStringLiteral("(no dtype)"));
}

QString jsonScalar(const ir::AttrMap& v) {
    if (v.is_string()) return QStringLiteral("\"%1\"").arg(qs(v.get<std::string>()));
    return qs(v.dump());
}

}  // namespace

PropertiesPanel::PropertiesPanel(GraphSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    setObjectName(QStringLiteral("propertiesPanel"));
    tree_ = new QTreeWidget(this);
    tree_->setObjectName(QStringLiteral("propertiesTree"));
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Property"), tr("Value")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    tree_->header()->setStretchLastSection(false);
    tree_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(tree_);

    connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item, int) {
        const QVariant v = item->data(1, kRefRole);
        if (v.isValid()) session_->selectionModel()->select(v.value<ItemRef>(), true);
    });
    connect(session_, &GraphSession::layoutChanged, this, &PropertiesPanel::rebuild);
    rebuild();
}

QString PropertiesPanel::shownName() const {
    const auto found = tree_->findItems(QStringLiteral("Name"), Qt::MatchExactly | Qt::MatchRecursive, 0);
    return found.isEmpty() ? QString() : found.front()->text(1);
}

QTreeWidgetItem* PropertiesPanel::section(const QString& title) {
    auto* item = new QTreeWidgetItem(tree_, {title});
    QFont f = item->font(0);
    f.setBold(true);
    item->setFont(0, f);
    item->setFirstColumnSpanned(true);
    item->setExpanded(true);
    return item;
}

QTreeWidgetItem* PropertiesPanel::row(QTreeWidgetItem* parent, const QString& key, const QString& value) {
    auto* item = parent ? new QTreeWidgetItem(parent, {key, value}) : new QTreeWidgetItem(tree_, {key, value});
    item->setToolTip(1, value);
    return item;
}

QTreeWidgetItem* PropertiesPanel::link(QTreeWidgetItem* parent, const QString& key, const QString& text,
                                       const ItemRef& target) {
    auto* item = row(parent, key, text);
    item->setData(1, kRefRole, QVariant::fromValue(target));
    item->setForeground(1, palette().color(QPalette::Link));
    QFont f = item->font(1);
    f.setUnderline(true);
    item->setFont(1, f);
    item->setToolTip(1, tr("Click to select %1").arg(text));
    return item;
}

void PropertiesPanel::rebuild() {
    tree_->setUpdatesEnabled(false);
    tree_->clear();
    const ItemRef sel = session_->selectionModel()->selection();
    if (session_->document()) {
        switch (sel.kind) {
        case RefKind::Node: showNode(sel.index); break;
        case RefKind::GraphInput: showGraphInput(sel.index); break;
        case RefKind::Weight: showWeight(sel); break;
        case RefKind::Output: showOutput(sel.index); break;
        case RefKind::Module: showModule(sel.index); break;
        case RefKind::SubgraphNode: showSubgraphNode(sel); break;
        case RefKind::None: showSummary(); break;
        }
    }
    tree_->expandToDepth(1);
    tree_->setUpdatesEnabled(true);
}

void PropertiesPanel::showSummary() {
    const auto& g = session_->document()->graph;
    auto* s = section(tr("Model"));
    row(s, tr("Model"), qs(g.modelName));
    row(s, tr("PyTorch"), qs(g.pytorchVersion));
    row(s, tr("File"), session_->filePath());
    row(s, tr("Nodes"), QString::number(g.nodes.size()));
    row(s, tr("Inputs"), QString::number(g.graphInputs.size()));
    row(s, tr("Outputs"), QString::number(g.graphOutputs.size()));
    row(s, tr("Weights"), QString::number(g.weights.size()));
    row(s, tr("Constants"), QString::number(g.constants.size()));
    auto* in = section(tr("Inputs"));
    for (size_t i = 0; i < g.graphInputs.size(); ++i)
        link(in, qs(g.graphInputs[i].name), tensorSummary(g.graphInputs[i]),
             ItemRef::graphInput(static_cast<int64_t>(i)));
    auto* out = section(tr("Outputs"));
    for (size_t i = 0; i < g.graphOutputs.size(); ++i)
        link(out, qs(g.graphOutputs[i].name), tensorSummary(g.graphOutputs[i]),
             ItemRef::output(static_cast<int64_t>(i)));
    // A dynamic-shape program: each symbol with the range it was exported for.
    if (!g.symbolRanges.empty()) {
        auto* symbols = section(tr("Symbols"));
        for (const auto& r : g.symbolRanges)
            row(symbols, qs(r.symbol),
                QStringLiteral("[%1, %2]")
                    .arg(r.min)
                    .arg(r.max == INT64_MAX ? QStringLiteral("\u221e") : QString::number(r.max)));
    }
}

void PropertiesPanel::showModule(int64_t id) {
    const auto* tree = session_->moduleTree();
    const auto* kinds = session_->moduleKinds();
    if (!tree || id < 0 || id >= static_cast<int64_t>(tree->size())) return;
    const auto& g = session_->document()->graph;
    const auto& m = tree->module(static_cast<modules::ModuleId>(id));
    auto* s = section(tr("Module"));
    row(s, tr("Path"), m.path.empty() ? tr("(model)") : qs(m.path));
    if (kinds) row(s, tr("Kind"), qs((*kinds)[static_cast<size_t>(id)]));
    row(s, tr("Ops"), QLocale().toString(static_cast<qlonglong>(m.opCount)));
    row(s, tr("Weights"), QLocale().toString(static_cast<qlonglong>(m.weightCount)));
    row(s, tr("Parameters"), QLocale().toString(static_cast<qlonglong>(m.parameterCount)));
    if (m.parent >= 0) {
        const auto& parent = tree->module(m.parent);
        link(s, tr("Parent"), parent.path.empty() ? tr("(model)") : qs(parent.path),
             ItemRef::module(m.parent, qs(parent.path)));
    }
    row(s, tr("State"),
        session_->isModuleExpanded(id) ? tr("open (double-click its title to close)")
                                       : tr("closed (double-click to open)"));
    if (!m.children.empty()) {
        auto* c = section(tr("Submodules (%1)").arg(m.children.size()));
        for (size_t k = 0; k < m.children.size() && k < 200; ++k) {
            const auto& child = tree->module(m.children[k]);
            link(c, qs(child.name), tr("%1 ops").arg(child.opCount), ItemRef::module(m.children[k], qs(child.path)));
        }
    }
    if (!m.nodes.empty()) {
        auto* n = section(tr("Ops directly in it (%1)").arg(m.nodes.size()));
        for (size_t k = 0; k < m.nodes.size() && k < 200; ++k) {
            const auto& node = g.nodes[static_cast<size_t>(m.nodes[k])];
            link(n, qs(node.name), qs(node.opType), ItemRef::node(m.nodes[k], qs(node.name)));
        }
    }
}

void PropertiesPanel::showNode(int64_t n) {
    const auto* doc = session_->document();
    const auto& g = doc->graph;
    if (n < 0 || n >= static_cast<int64_t>(g.nodes.size())) return;
    const auto& node = g.nodes[n];
    auto* s = section(tr("Node"));
    row(s, tr("Name"), qs(node.name));
    row(s, tr("op_type"), qs(node.opType));
    row(s, tr("Index"), QString::number(n));
    if (const auto* tree = session_->moduleTree()) {
        const auto mod = tree->moduleOfNode(n);
        const auto& path = tree->module(mod).path;
        link(s, tr("Module"), path.empty() ? tr("(model)") : qs(path), ItemRef::module(mod, qs(path)));
    }
    // The line of the user's model code that made the node (a .pt2 records it).
    const std::string stackTrace = node.exported ? node.exported->stackTrace : std::string();
    if (const auto frame = ir::userFrame(stackTrace)) {
        auto* source = row(s, tr("Source"),
                           QStringLiteral("%1:%2  %3")
                               .arg(QFileInfo(qs(frame->file)).fileName())
                               .arg(frame->line)
                               .arg(qs(frame->code)));
        source->setToolTip(1, qs(stackTrace));
    }
    showNodeAttributes(node);
    showNodeInputs(n);
    showNodeOutputs(n);
    showSubgraphs(node);
}

// A node inside a higher-order op's subgraph: its own op and tensors, and
// the op (the frame it is drawn in) as a link.
void PropertiesPanel::showSubgraphNode(const ItemRef& ref) {
    const auto& g = session_->document()->graph;
    if (ref.index < 0 || ref.index >= static_cast<int64_t>(g.nodes.size())) return;
    const auto& op = g.nodes[static_cast<size_t>(ref.index)];
    const ir::Graph* sub = ir::subgraphAtPath(g, ref.subgraph);
    if (!sub || ref.inner < 0 || ref.inner >= static_cast<int64_t>(sub->nodes.size())) return;
    const auto& node = sub->nodes[static_cast<size_t>(ref.inner)];
    auto* s = section(tr("Node"));
    row(s, tr("Name"), qs(node.name));
    row(s, tr("op_type"), qs(node.opType));
    row(s, tr("Position"), qs(ref.subgraph + "/" + node.name));
    row(s, tr("Index"), tr("%1 of %2 in its subgraph").arg(ref.inner).arg(sub->nodes.size()));
    // The op whose subgraph holds it: a node of the program, or itself inside a subgraph.
    std::string enclosing, owner;
    if (ir::splitSubgraphPath(ref.subgraph, enclosing, owner) && !enclosing.empty()) {
        if (const ir::Graph* outer = ir::subgraphAtPath(g, enclosing))
            for (size_t j = 0; j < outer->nodes.size(); ++j)
                if (outer->nodes[j].name == owner)
                    link(s, tr("Subgraph of"), qs(owner),
                         ItemRef::subgraphNode(ref.index, enclosing, static_cast<int64_t>(j), qs(owner)));
    } else {
        link(s, tr("Subgraph of"), qs(op.name), ItemRef::node(ref.index, qs(op.name)));
    }
    showNodeAttributes(node);
    auto* ins = section(tr("Inputs (%1)").arg(node.inputs.size()));
    for (size_t k = 0; k < node.inputs.size(); ++k)
        row(ins, QStringLiteral("%1: %2").arg(k).arg(qs(node.inputs[k].name)), tensorSummary(node.inputs[k]));
    auto* outs = section(tr("Outputs (%1)").arg(node.outputs.size()));
    for (size_t k = 0; k < node.outputs.size(); ++k)
        row(outs, QStringLiteral("%1: %2").arg(k).arg(qs(node.outputs[k].name)), tensorSummary(node.outputs[k]));
}

// A higher-order op's subgraphs (a .pt2 holds them): each with its ops and
// what it takes and gives, drawn inside the op's frame in the graph.
void PropertiesPanel::showSubgraphs(const ir::OpNode& node) {
    if (node.subgraphs.empty()) return;
    auto* s = section(tr("Subgraphs (%1)").arg(node.subgraphs.size()));
    for (const auto& sub : node.subgraphs) {
        if (!sub.graph) continue;
        const auto& g = *sub.graph;
        auto* item = row(s, qs(sub.name), tr("%n op(s)", "", static_cast<int>(g.nodes.size())));
        QStringList ins, outs, ops;
        for (const auto& in : g.graphInputs) ins << QStringLiteral("%1 %2").arg(qs(in.name), tensorSummary(in));
        for (const auto& out : g.graphOutputs) outs << QStringLiteral("%1 %2").arg(qs(out.name), tensorSummary(out));
        for (const auto& op : g.nodes) ops << qs(op.shortOpName());
        row(item, tr("Inputs"), ins.join(QStringLiteral(", ")));
        row(item, tr("Outputs"), outs.join(QStringLiteral(", ")));
        row(item, tr("Ops"), ops.join(QStringLiteral(" → ")));
    }
}

// Attributes, with the exporter's internal list bookkeeping spelled out.
void PropertiesPanel::showNodeAttributes(const ir::OpNode& node) {
    auto* attrs = section(tr("Attributes"));
    if (node.attrs.empty()) row(attrs, tr("(none)"), QString());
    for (auto it = node.attrs.begin(); it != node.attrs.end(); ++it) {
        const QString key = qs(it.key());
        const auto& v = it.value();
        if (key == QLatin1String("_tensor_list_sizes") && v.is_array()) {
            auto* item = row(attrs, tr("tensor-list arguments"),
                             tr("%n list(s) packed into inputs", "", static_cast<int>(v.size())));
            item->setToolTip(0, QStringLiteral("_tensor_list_sizes = %1").arg(qs(v.dump())));
            int64_t first = 0;
            int k = 0;
            for (const auto& size : v) {
                const int64_t count = size.is_number_integer() ? size.get<int64_t>() : 0;
                QStringList names;
                for (int64_t i = first; i < first + count && i < static_cast<int64_t>(node.inputs.size()); ++i)
                    names << qs(node.inputs[i].name);
                row(item, tr("list %1").arg(k++),
                    tr("%1 tensor(s): %2")
                        .arg(count)
                        .arg(names.isEmpty() ? tr("(none)") : names.join(QStringLiteral(", "))));
                first += count;
            }
        } else if (key == QLatin1String("_tensor_list_none_masks") && v.is_array()) {
            auto* item = row(attrs, tr("None positions in optional lists"), qs(v.dump()));
            item->setToolTip(0, QStringLiteral("_tensor_list_none_masks"));
            int k = 0;
            for (const auto& mask : v) {
                QStringList parts;
                if (mask.is_array())
                    for (const auto& b : mask)
                        parts << (b.is_boolean() && b.get<bool>() ? QStringLiteral("None") : QStringLiteral("tensor"));
                row(item, tr("list %1").arg(k++), QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", "))));
            }
        } else {
            addAttribute(attrs, key, v);
        }
    }
}

// Objects and long or nested arrays become subtrees; the rest is one row.
void PropertiesPanel::addAttribute(QTreeWidgetItem* parent, const QString& key, const ir::AttrMap& v) {
    if (v.is_object()) {
        auto* item = row(parent, key, QStringLiteral("{%1}").arg(v.size()));
        for (auto it = v.begin(); it != v.end(); ++it) addAttribute(item, qs(it.key()), it.value());
    } else if (v.is_array() &&
               (v.size() > 8 || std::any_of(v.begin(), v.end(), [](const auto& e) { return e.is_structured(); }))) {
        auto* item = row(parent, key, QStringLiteral("[%1 items]").arg(v.size()));
        int k = 0;
        for (const auto& e : v) addAttribute(item, QStringLiteral("[%1]").arg(k++), e);
    } else {
        row(parent, key, jsonScalar(v));
    }
}

// Each input with the link to what produces it.
void PropertiesPanel::showNodeInputs(int64_t n) {
    const auto* doc = session_->document();
    const auto& g = doc->graph;
    const auto& index = *doc->index;
    const auto& node = g.nodes[n];
    auto* ins = section(tr("Inputs (%1)").arg(node.inputs.size()));
    for (size_t i = 0; i < node.inputs.size(); ++i) {
        const auto& t = node.inputs[i];
        auto* item = row(ins, QStringLiteral("%1: %2").arg(i).arg(qs(t.name)), tensorSummary(t));
        const auto& src = index.source(n, static_cast<int64_t>(i));
        switch (src.kind) {
        case ir::ValueSource::Kind::NodeOutput:
            link(item, tr("producer"),
                 QStringLiteral("%1 (output %2)").arg(qs(g.nodes[src.index].name)).arg(src.outputIndex),
                 ItemRef::node(src.index));
            break;
        case ir::ValueSource::Kind::GraphInput:
            link(item, tr("producer"), tr("graph input %1").arg(qs(g.graphInputs[src.index].name)),
                 ItemRef::graphInput(src.index));
            break;
        case ir::ValueSource::Kind::Weight: {
            const QString placeholder = qs(src.placeholder.empty() ? t.name : src.placeholder);
            const std::string* original = index.originalName(placeholder.toStdString());
            link(item, qs(ir::tensorKindName(index.kindOf(placeholder.toStdString()))),
                 original ? QStringLiteral("%1 → %2").arg(placeholder, qs(*original)) : placeholder,
                 ItemRef::weight(placeholder, src.index));
            break;
        }
        case ir::ValueSource::Kind::Missing: row(item, tr("producer"), tr("(missing: nothing defines it)")); break;
        }
        item->setExpanded(true);
    }
}

// Each output with links to what reads it (nodes, graph outputs).
void PropertiesPanel::showNodeOutputs(int64_t n) {
    const auto* doc = session_->document();
    const auto& g = doc->graph;
    const auto& node = g.nodes[n];
    auto* outs = section(tr("Outputs (%1)").arg(node.outputs.size()));
    for (size_t o = 0; o < node.outputs.size(); ++o) {
        const auto& t = node.outputs[o];
        auto* item = row(outs, QStringLiteral("%1: %2").arg(o).arg(qs(t.name)), tensorSummary(t));
        // A size or other symbolic value: what it computes, over which symbols.
        if (const std::string expression = ir::symbolicValueText(g, t.name); !expression.empty())
            row(item, tr("expression"), qs(expression));
        const auto& uses = doc->index->consumersOf(n, static_cast<int64_t>(o));
        for (const auto& use : uses)
            link(item, tr("consumer"), QStringLiteral("%1 (input %2)").arg(qs(g.nodes[use.node].name)).arg(use.input),
                 ItemRef::node(use.node));
        for (size_t k = 0; k < g.graphOutputs.size(); ++k)
            if (g.graphOutputs[k].name == t.name)
                link(item, tr("graph output"), QStringLiteral("output_%1").arg(k),
                     ItemRef::output(static_cast<int64_t>(k)));
        if (uses.empty()) row(item, tr("consumers"), tr("(none)"));
        item->setExpanded(true);
    }
}

void PropertiesPanel::showGraphInput(int64_t i) {
    const auto* doc = session_->document();
    const auto& g = doc->graph;
    if (i < 0 || i >= static_cast<int64_t>(g.graphInputs.size())) return;
    const auto& t = g.graphInputs[i];
    auto* s = section(tr("Graph input"));
    row(s, tr("Name"), qs(t.name));
    row(s, tr("Shape"), qs(ir::shapeToList(t.shape)));
    row(s, tr("dtype"), qs(t.dtype));
    auto* c = section(tr("Consumers"));
    for (const auto& use : doc->index->consumersOfGraphInput(i))
        link(c, tr("consumer"), QStringLiteral("%1 (input %2)").arg(qs(g.nodes[use.node].name)).arg(use.input),
             ItemRef::node(use.node));
}

void PropertiesPanel::showWeight(const ItemRef& ref) {
    const auto* doc = session_->document();
    const auto& g = doc->graph;
    const auto& index = *doc->index;
    const std::string placeholder = ref.name.toStdString();
    const std::string* original = index.originalName(placeholder);
    const auto wi = index.weightIndex(placeholder);
    auto* s = section(tr("Weight"));
    row(s, tr("Name"), ref.name);
    row(s, tr("Placeholder"), ref.name);
    row(s, tr("Original name"), original ? qs(*original) : tr("(not in weight_name_mapping)"));
    row(s, tr("Kind"), qs(ir::tensorKindName(index.kindOf(placeholder))));
    if (wi && *wi >= 0 && *wi < static_cast<int64_t>(g.weights.size())) {
        const auto& w = g.weights[*wi];
        row(s, tr("Shape"), shapeText(w.shape));
        row(s, tr("dtype"), qs(w.dtype));
        if (auto n = ir::elementCount(w.shape)) row(s, tr("Elements"), QLocale().toString(static_cast<qlonglong>(*n)));
    }
    showWeightQuantization(placeholder);
    auto* v = section(tr("Value"));
    const ir::ConstantValue* constant = original ? index.constant(*original) : nullptr;
    if (constant) {
        row(v, tr("Source"), tr("constants section of the IR"));
        row(v, tr("Stored"),
            constant->usable() ? tr("%1 bytes of %2").arg(constant->bytes.size()).arg(qs(constant->dtype))
                               : tr("unusable: %1").arg(qs(constant->problem)));
    } else if (session_->decorations()->suppliedPlaceholders().contains(ref.name)) {
        row(v, tr("Source"), tr("supplied for the run (Constants dock); its tensor is in the Tensor dock"));
    } else if (!g.archiveProgram.empty()) {
        row(v, tr("Stored"), tr("in the archive's weights (the Weights dock says whether it loaded)"));
    } else {
        // The debugger's docks say whether a loaded file has it; this panel reads the IR only.
        row(v, tr("Stored"), tr("no value in the IR (a state_dict or the Constants dock supplies it)"));
    }
    auto* c = section(tr("Used by"));
    if (wi) {
        for (const auto& use : index.usesOfWeight(*wi))
            if (use.node >= 0 && use.node < static_cast<int64_t>(g.nodes.size()) &&
                use.input < static_cast<int64_t>(g.nodes[use.node].inputs.size()) &&
                (g.nodes[use.node].inputs[use.input].name == placeholder ||
                 (original && g.nodes[use.node].inputs[use.input].name == *original)))
                link(c, tr("consumer"), QStringLiteral("%1 (input %2)").arg(qs(g.nodes[use.node].name)).arg(use.input),
                     ItemRef::node(use.node));
    }
}

// A quantized weight (a PT2E program's int8 conv weight, torchao's): how it
// is read back to float, with its scale and zero point as links.
void PropertiesPanel::showWeightQuantization(const std::string& placeholder) {
    const auto* doc = session_->document();
    const auto q = ir::weightQuantization(doc->graph, placeholder);
    if (!q) return;
    auto* s = section(tr("Quantization"));
    row(s, tr("Stored as"), q->dtype.empty() ? tr("(dtype not given)") : qs(q->dtype));
    row(s, tr("Scheme"), qs(q->scheme));
    if (q->quantMin && q->quantMax) row(s, tr("Range"), QStringLiteral("[%1, %2]").arg(*q->quantMin).arg(*q->quantMax));
    auto tensorRow = [&](const QString& key, const std::string& tensor) {
        if (tensor.empty()) return;
        if (doc->index->weightIndex(tensor) || doc->index->originalName(tensor))
            link(s, key, qs(tensor), ItemRef::weight(qs(tensor), doc->index->weightIndex(tensor).value_or(-1)));
        else if (const auto p = doc->index->producerOfTensor(tensor))
            link(s, key, qs(tensor), ItemRef::node(p->first, qs(doc->graph.nodes[p->first].name)));
        else
            row(s, key, qs(tensor));
    };
    tensorRow(tr("Scale"), q->scaleTensor);
    if (q->scale) row(s, tr("Scale"), QString::number(*q->scale, 'g', 9));
    tensorRow(tr("Zero point"), q->zeroPointTensor);
    if (q->zeroPoint) row(s, tr("Zero point"), QString::number(*q->zeroPoint));
    if (q->dequantizeNode < 0) {
        row(s, tr("Value"), tr("dequantized from its parts, as its own dequantize() does (the Tensor dock)"));
        return;
    }
    const auto& dq = doc->graph.nodes[static_cast<size_t>(q->dequantizeNode)];
    link(s, tr("Read back by"), qs(dq.name), ItemRef::node(q->dequantizeNode, qs(dq.name)));
}

void PropertiesPanel::showOutput(int64_t i) {
    const auto* doc = session_->document();
    const auto& g = doc->graph;
    if (i < 0 || i >= static_cast<int64_t>(g.graphOutputs.size())) return;
    const auto& t = g.graphOutputs[i];
    auto* s = section(tr("Graph output"));
    row(s, tr("Name"), QStringLiteral("output_%1").arg(i));
    row(s, tr("Tensor"), qs(t.name));
    row(s, tr("Shape"), qs(ir::shapeToList(t.shape)));
    row(s, tr("dtype"), qs(t.dtype));
    if (auto p = doc->index->producerOfTensor(t.name))
        link(s, tr("producer"), qs(g.nodes[p->first].name), ItemRef::node(p->first));
}

namespace {

const bool propertiesPanelRegistered = registerPanel({
    .id = kPropertiesPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Properties"),
    .order = 1,
    .make = [](const PanelContext& c) -> QWidget* { return new PropertiesPanel(c.session); },
    .where = {Qt::RightDockWidgetArea, {}, {}},
});

}  // namespace

}  // namespace irscope::widgets
