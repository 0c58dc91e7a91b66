#include "core/layout/layout_graph.h"

namespace irscope::layout {

const char* itemKindName(ItemKind kind) {
    switch (kind) {
    case ItemKind::Op: return "op";
    case ItemKind::GraphInput: return "input";
    case ItemKind::Parameter: return "parameter";
    case ItemKind::Buffer: return "buffer";
    case ItemKind::Constant: return "constant";
    case ItemKind::OtherWeight: return "weight";
    case ItemKind::Output: return "output";
    case ItemKind::Ghost: return "ghost";
    case ItemKind::Module: return "module";
    case ItemKind::Frame: return "frame";
    case ItemKind::Port: return "port";
    case ItemKind::Region: return "region";
    case ItemKind::Subgraph: return "subgraph";
    }
    return "op";
}

bool isWeightItem(ItemKind kind) {
    return kind == ItemKind::Parameter || kind == ItemKind::Buffer || kind == ItemKind::Constant ||
           kind == ItemKind::OtherWeight;
}

}  // namespace irscope::layout
