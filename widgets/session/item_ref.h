#pragma once
// ItemRef: what a selection or a search hit points at, independent of any one
// layout (toggling weights re-lays the graph out; refs stay valid).
#include <cstdint>
#include <string>

#include <QMetaType>
#include <QString>

namespace irscope::widgets {

// SubgraphNode: a node inside a higher-order op's subgraph (a cond's
// branch, a loop's body), at any depth, drawn inside the op's frame.
enum class RefKind : unsigned char { None, Node, GraphInput, Weight, Output, Module, SubgraphNode };

struct ItemRef {
    RefKind kind = RefKind::None;
    int64_t index = -1;  // node / graph input / graph output index; for Weight the weights[] index (-1: unmapped); for
                         // Module the ModuleId
    QString name;        // IR name; for Weight the placeholder, which is its identity; for Module its path
    // SubgraphNode: index is the program's higher-order op that holds it (the
    // outermost), `subgraph` the path of the subgraph it is a node of, as the
    // drawing and the debugger's frames name it ("while_loop/
    // while_loop_body_graph_0/cond/true_graph_0"), `inner` its index there;
    // name is the inner node's.
    std::string subgraph = {};
    int64_t inner = -1;

    bool isNone() const { return kind == RefKind::None; }
    bool isNode() const { return kind == RefKind::Node; }
    bool isModule() const { return kind == RefKind::Module; }
    bool isSubgraphNode() const { return kind == RefKind::SubgraphNode; }
    bool operator==(const ItemRef& o) const {
        if (kind != o.kind) return false;
        if (kind == RefKind::Weight) return name == o.name;
        if (kind == RefKind::SubgraphNode) return index == o.index && subgraph == o.subgraph && inner == o.inner;
        return kind == RefKind::None || index == o.index;
    }
    bool operator!=(const ItemRef& o) const { return !(*this == o); }

    static ItemRef node(int64_t i, QString name = {}) { return {RefKind::Node, i, std::move(name)}; }
    static ItemRef graphInput(int64_t i, QString name = {}) { return {RefKind::GraphInput, i, std::move(name)}; }
    static ItemRef output(int64_t i, QString name = {}) { return {RefKind::Output, i, std::move(name)}; }
    static ItemRef module(int64_t id, QString path = {}) { return {RefKind::Module, id, std::move(path)}; }
    static ItemRef subgraphNode(int64_t op, std::string subgraph, int64_t inner, QString name = {}) {
        ItemRef r{RefKind::SubgraphNode, op, std::move(name)};
        r.subgraph = std::move(subgraph);
        r.inner = inner;
        return r;
    }
    static ItemRef weight(QString placeholder, int64_t weightIndex = -1) {
        return {RefKind::Weight, weightIndex, std::move(placeholder)};
    }
};

}  // namespace irscope::widgets

Q_DECLARE_METATYPE(irscope::widgets::ItemRef)
