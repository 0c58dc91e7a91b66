#include "core/layout/layout_graph_text.h"

#include <sstream>
#include <stdexcept>

namespace irscope::layout {

namespace {

constexpr ItemKind kKinds[] = {ItemKind::Op,       ItemKind::GraphInput,  ItemKind::Parameter, ItemKind::Buffer,
                               ItemKind::Constant, ItemKind::OtherWeight, ItemKind::Output,    ItemKind::Ghost,
                               ItemKind::Module,   ItemKind::Frame,       ItemKind::Port,      ItemKind::Region,
                               ItemKind::Subgraph};

ItemKind kindNamed(const std::string& name, int line) {
    for (ItemKind k : kKinds)
        if (name == itemKindName(k)) return k;
    throw std::runtime_error("layout graph text, line " + std::to_string(line) + ": unknown kind '" + name + "'");
}

}  // namespace

std::string layoutGraphToText(const LayoutGraph& graph) {
    std::ostringstream s;
    s.precision(10);
    for (const auto& n : graph.nodes)
        s << "node " << itemKindName(n.kind) << ' ' << n.width << ' ' << n.height << ' ' << (n.satellite ? 1 : 0) << ' '
          << n.name << '\n';
    for (const auto& e : graph.edges)
        s << "edge " << e.source << ' ' << e.target << ' ' << (e.style == EdgeStyle::Dashed ? "dashed" : "solid")
          << '\n';
    return s.str();
}

LayoutGraph layoutGraphFromText(std::istream& in) {
    LayoutGraph g;
    std::string text;
    int line = 0;
    auto fail = [&](const std::string& why) {
        throw std::runtime_error("layout graph text, line " + std::to_string(line) + ": " + why);
    };
    while (std::getline(in, text)) {
        ++line;
        if (text.empty() || text[0] == '#') continue;
        std::istringstream ls(text);
        std::string record;
        ls >> record;
        if (record == "node") {
            std::string kind;
            LayoutNode n;
            int satellite = 0;
            if (!(ls >> kind >> n.width >> n.height >> satellite))
                fail("expected: node KIND WIDTH HEIGHT SATELLITE NAME");
            n.kind = kindNamed(kind, line);
            n.satellite = satellite != 0;
            ls >> std::ws;
            std::getline(ls, n.name);
            n.lines = {n.name};
            g.addNode(std::move(n));
        } else if (record == "edge") {
            LayoutEdge e;
            std::string style;
            if (!(ls >> e.source >> e.target >> style)) fail("expected: edge SOURCE TARGET STYLE");
            const auto n = static_cast<int32_t>(g.nodes.size());
            if (e.source < 0 || e.source >= n || e.target < 0 || e.target >= n) fail("edge endpoint out of range");
            if (style != "solid" && style != "dashed") fail("unknown edge style '" + style + "'");
            e.style = style == "dashed" ? EdgeStyle::Dashed : EdgeStyle::Solid;
            g.addEdge(std::move(e));
        } else {
            fail("unknown record '" + record + "'");
        }
    }
    return g;
}

}  // namespace irscope::layout
