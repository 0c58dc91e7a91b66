#include "core/export/svg_export.h"

#include "core/modules/module_drawing.h"
#include "core/modules/module_inference.h"
#include "core/modules/region_drawing.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <unordered_map>

namespace irscope::exporter {

using namespace irscope::layout;

std::string xmlEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            // Control characters are not allowed in XML 1.0.
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
                out += "?";
            else
                out += c;
        }
    }
    return out;
}

FamilyColors itemColors(const PlacedItem& item) {
    switch (item.kind) {
    case ItemKind::GraphInput: return {"#d5f0ec", "#2f857c"};
    case ItemKind::Output: return {"#d5f0ec", "#2f857c"};
    case ItemKind::Parameter: return {"#fff4cc", "#b08d1a"};
    case ItemKind::Buffer: return {"#dcecfb", "#3f78b0"};
    case ItemKind::Constant: return {"#eedffa", "#8455b0"};
    case ItemKind::OtherWeight: return {"#ececec", "#777777"};
    case ItemKind::Ghost: return {"#ffffff", "#9a9a9a"};
    case ItemKind::Module: return {"#e8eef7", "#4a6a94"};
    case ItemKind::Frame: return {"#f7f9fc", "#9aa9bd"};
    case ItemKind::Region: return {"#f4f7fb", "#5b7fa8"};
    case ItemKind::Subgraph: return {"#ffffff", "#8fa6c2"};
    case ItemKind::Port: return {"#f0f0f0", "#9a9a9a"};
    case ItemKind::Op: break;
    }
    switch (item.family) {
    case OpFamily::ConvLinear: return {"#d6e6f7", "#3a6ea5"};
    case OpFamily::Normalization: return {"#dff0d8", "#4b8a3c"};
    case OpFamily::Activation: return {"#fde9c4", "#c0871c"};
    case OpFamily::Shape: return {"#ededed", "#8a8a8a"};
    case OpFamily::Elementwise: return {"#f7dff0", "#a5487f"};
    case OpFamily::Reduction: return {"#e3ddf7", "#6650a5"};
    case OpFamily::Attention: return {"#fad8d0", "#c0503a"};
    case OpFamily::Other: return {"#ffffff", "#666666"};
    }
    return {"#ffffff", "#666666"};
}

namespace {

// Fixed-point numbers without trailing zeros: "12", "12.5", "-3.25".
void num(std::string& out, double v) {
    char buf[32];
    const double r = std::round(v * 100) / 100;
    int n = std::snprintf(buf, sizeof buf, "%.2f", r == 0 ? 0.0 : r);
    while (n > 0 && buf[n - 1] == '0') --n;
    if (n > 0 && buf[n - 1] == '.') --n;
    out.append(buf, n);
}

std::string idPrefix(const PlacedItem& item) {
    // Inside a higher-order op's subgraph: names repeat across branches.
    if (!item.position.empty() && item.subgraph < 0)  // two or more subgraphs deep: by its frames
        return "in_" + item.position + "_" + std::string(itemKindName(item.kind)) + "_" + item.name;
    if (item.region >= 0 && item.kind != ItemKind::Subgraph)
        return "in" + std::to_string(item.region) + "_" + std::to_string(item.subgraph) + "_" +
               std::string(itemKindName(item.kind)) + "_" + item.name;
    switch (item.kind) {
    case ItemKind::Op: return "op_" + item.name;
    case ItemKind::GraphInput: return "input_" + item.name;
    case ItemKind::Output: return "output_" + std::to_string(item.irIndex);
    case ItemKind::Ghost: return "ghost_" + item.name;
    case ItemKind::Module: return "module_" + item.name;
    case ItemKind::Frame: return "frame_" + item.name;
    case ItemKind::Region: return "region_" + item.name;
    case ItemKind::Subgraph: return "subgraph" + std::to_string(item.irIndex) + "_" + item.name;
    case ItemKind::Port: return "port_" + item.name;
    default: return "w_" + item.name;
    }
}

// XML ids: keep letters, digits, '_', '-', '.'; anything else becomes '_'.
std::string sanitizeId(const std::string& s) {
    std::string out;
    for (unsigned char c : s) out += (std::isalnum(c) || c == '_' || c == '-' || c == '.') ? static_cast<char>(c) : '_';
    return out;
}

// Edge labels may reach past the rightmost box: the canvas is widened for them.
double canvasRight(const LayoutResult& layout, double labelFont) {
    double right = layout.bounds.right();
    for (const auto& e : layout.edges)
        if (!e.label.empty())
            right = std::max(right, e.labelPos.x + 0.6 * labelFont * static_cast<double>(e.label.size()) + 4);
    return right;
}

void writeSvgOpening(std::string& s, double width, double height, const SvgOptions& o) {
    s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"";
    num(s, width * o.scale);
    s += "\" height=\"";
    num(s, height * o.scale);
    s += "\" viewBox=\"0 0 ";
    num(s, width);
    s += ' ';
    num(s, height);
    s += "\" font-family=\"" + xmlEscape(o.fontFamily) + "\">\n";
    s += "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
}

// Ids, unique: a weight drawn once per use gets _1, _2, ... after the first.
std::vector<std::string> uniqueItemIds(const LayoutResult& layout) {
    std::vector<std::string> ids(layout.items.size());
    std::set<std::string> used;
    for (size_t i = 0; i < layout.items.size(); ++i) {
        const std::string base = sanitizeId(idPrefix(layout.items[i]));
        std::string id = base;
        for (int k = 1; used.count(id); ++k) id = base + "_" + std::to_string(k);
        used.insert(id);
        ids[i] = std::move(id);
    }
    return ids;
}

// x, y, width and height attributes of a rect, up to the closing quote of height.
void writeRectGeometry(std::string& s, const Rect& r) {
    s += "<rect x=\"";
    num(s, r.x);
    s += "\" y=\"";
    num(s, r.y);
    s += "\" width=\"";
    num(s, r.width);
    s += "\" height=\"";
    num(s, r.height);
}

// An expanded module's frame: a rounded rect with its name in the top-left corner.
void writeFrame(std::string& s, const PlacedItem& it, const std::string& id, const SvgOptions& o) {
    const FamilyColors c = itemColors(it);
    s += "<g id=\"" + id + "\" class=\"node " + itemKindName(it.kind) + "\"><title>" + xmlEscape(it.name) + "</title>";
    writeRectGeometry(s, it.rect);
    s += "\" rx=\"8\" ry=\"8\" fill=\"";
    s += c.fill;
    s += "\" stroke=\"";
    s += c.stroke;
    s += "\" stroke-width=\"1.2\"/>";
    if (!it.lines.empty()) {
        s += "<text x=\"";
        num(s, it.rect.x + 8);
        s += "\" y=\"";
        num(s, it.rect.y + 11 + o.fontSize * 0.35);
        s += "\" font-size=\"";
        num(s, o.fontSize * 11 / 12);
        s += "\" font-weight=\"bold\" fill=\"#3d4f66\">" + xmlEscape(it.lines.front()) + "</text>";
    }
    s += "</g>\n";
}

// Arrowhead as a polygon (Qt's SVG renderer has no markers); none for a zero-length last segment.
void writeArrowhead(std::string& s, const RoutedEdge& edge, const char* color) {
    const Point tip = edge.points.back(), from = edge.points[edge.points.size() - 2];
    const double dx = tip.x - from.x, dy = tip.y - from.y, len = std::hypot(dx, dy);
    if (len > 0) {
        const double ux = dx / len, uy = dy / len, l = 8, w = 3.5;
        s += "<polygon points=\"";
        num(s, tip.x);
        s += ',';
        num(s, tip.y);
        s += ' ';
        num(s, tip.x - ux * l - uy * w);
        s += ',';
        num(s, tip.y - uy * l + ux * w);
        s += ' ';
        num(s, tip.x - ux * l + uy * w);
        s += ',';
        num(s, tip.y - uy * l - ux * w);
        s += "\" fill=\"";
        s += color;
        s += "\"/>";
    }
}

// One edge: its polyline, arrowhead and shape label. Edges of fewer than two points are not drawn.
void writeEdge(std::string& s, const LayoutResult& layout, size_t e, double labelFont) {
    const RoutedEdge& edge = layout.edges[e];
    if (edge.points.size() < 2) return;
    const bool dashed = edge.style == EdgeStyle::Dashed;
    const char* color = dashed ? "#8c8c8c" : "#555555";
    s += "<g id=\"e" + std::to_string(e) + "\" class=\"edge " + (dashed ? "dashed" : "solid") + "\">";
    s += "<title>" + xmlEscape(layout.items[edge.source].name) + " -&gt; " + xmlEscape(layout.items[edge.target].name) +
         "</title>";
    s += "<path d=\"";
    for (size_t i = 0; i < edge.points.size(); ++i) {
        s += i == 0 ? "M" : " L";
        num(s, edge.points[i].x);
        s += ' ';
        num(s, edge.points[i].y);
    }
    s += "\" stroke=\"";
    s += color;
    s += "\" stroke-width=\"1.2\"";
    if (dashed) s += " stroke-dasharray=\"5 4\"";
    s += "/>";
    if (layout.items[edge.target].kind != ItemKind::Port)
        writeArrowhead(s, edge, color);  // a junction: the line goes on
    if (!edge.label.empty()) {
        s += "<text x=\"";
        num(s, edge.labelPos.x);
        s += "\" y=\"";
        num(s, edge.labelPos.y + labelFont * 0.35);
        s += "\" font-size=\"";
        num(s, labelFont);
        s += "\" fill=\"#666666\">" + xmlEscape(edge.label) + "</text>";
    }
    s += "</g>\n";
}

// The opening of a polygon element with its points, up to the closing quote.
void writePolygonPoints(std::string& s, std::initializer_list<Point> pts) {
    s += "<polygon points=\"";
    bool first = true;
    for (Point p : pts) {
        if (!first) s += ' ';
        first = false;
        num(s, p.x);
        s += ',';
        num(s, p.y);
    }
    s += "\"";
}

// A node's outline by kind: boxes for ops, ghosts, modules and ports; a
// trapezoid for outputs; a parallelogram for graph inputs and weights.
void writeNodeShape(std::string& s, const PlacedItem& it) {
    const Rect& r = it.rect;
    const FamilyColors c = itemColors(it);
    const double slant = std::min(10.0, r.width / 4);
    switch (it.kind) {
    case ItemKind::Op:
    case ItemKind::Ghost:
    case ItemKind::Module:
    case ItemKind::Port:
        writeRectGeometry(s, r);
        s += it.kind == ItemKind::Port ? "\" rx=\"10\" ry=\"10\"" : "\" rx=\"6\" ry=\"6\"";
        break;
    case ItemKind::Output:  // trapezoid, wide side up (torch_ir's [\ /])
        writePolygonPoints(s, {{r.left(), r.top()},
                               {r.right(), r.top()},
                               {r.right() - slant, r.bottom()},
                               {r.left() + slant, r.bottom()}});
        break;
    default:  // parallelogram: graph inputs and weights
        writePolygonPoints(s, {{r.left() + slant, r.top()},
                               {r.right(), r.top()},
                               {r.right() - slant, r.bottom()},
                               {r.left(), r.bottom()}});
        break;
    }
    s += " fill=\"";
    s += c.fill;
    s += "\" stroke=\"";
    s += c.stroke;
    s += it.kind == ItemKind::Module ? "\" stroke-width=\"2.4\"" : "\" stroke-width=\"1.2\"";
    if (it.kind == ItemKind::Ghost) s += " stroke-dasharray=\"3 3\"";
    s += "/>";
}

// A node's text lines, centred in its box: the first one larger (bold for ops and modules).
void writeNodeLines(std::string& s, const PlacedItem& it, const SvgOptions& o) {
    const Rect& r = it.rect;
    const double total = o.lineHeight * static_cast<double>(it.lines.size());
    const double top = r.center().y - total / 2;
    for (size_t l = 0; l < it.lines.size(); ++l) {
        s += "<text x=\"";
        num(s, r.center().x);
        s += "\" y=\"";
        num(s, top + o.lineHeight * (static_cast<double>(l) + 0.5) + o.fontSize * 0.35);
        s += "\" font-size=\"";
        num(s, l == 0 ? o.fontSize : o.fontSize * 11 / 12);
        s += "\" text-anchor=\"middle\" fill=\"";
        s += l == 0 ? "#1a1a1a" : "#555555";
        s += "\"";
        if (l == 0 && (it.kind == ItemKind::Op || it.kind == ItemKind::Module)) s += " font-weight=\"bold\"";
        if (it.kind == ItemKind::Ghost) s += " font-style=\"italic\"";
        s += ">";
        if (it.kind == ItemKind::Ghost) s += "\xe2\x86\xb3 ";  // "↳ ": drawn again here, defined elsewhere
        s += xmlEscape(it.lines[l]) + "</text>";
    }
}

void writeNode(std::string& s, const PlacedItem& it, const std::string& id, const SvgOptions& o) {
    s += "<g id=\"" + id + "\" class=\"node " + itemKindName(it.kind);
    if (it.kind == ItemKind::Op) s += std::string(" ") + opFamilyName(it.family);
    // An op inside subgraphs is titled with its position (op/subgraph/.../name).
    const bool placed = !it.position.empty() && it.kind == ItemKind::Op;
    s += "\"><title>" + xmlEscape(placed ? it.position + "/" + it.name : it.name) + "</title>";
    writeNodeShape(s, it);
    writeNodeLines(s, it, o);
    s += "</g>\n";
}

}  // namespace

std::string layoutToSvg(const LayoutResult& layout, const SvgOptions& o) {
    const double labelFont = o.fontSize * 10 / 12;
    const double width = canvasRight(layout, labelFont), height = layout.bounds.bottom();

    std::string s;
    s.reserve(256 + layout.items.size() * 400 + layout.edges.size() * 250);
    writeSvgOpening(s, width, height, o);
    const std::vector<std::string> ids = uniqueItemIds(layout);

    // Frames of expanded modules first: everything inside is drawn over them.
    s += "<g id=\"frames\">\n";
    for (size_t i = 0; i < layout.items.size(); ++i)
        if (layout::isFrameKind(layout.items[i].kind)) writeFrame(s, layout.items[i], ids[i], o);
    s += "</g>\n";

    // Edges next: boxes are drawn over their ends.
    s += "<g id=\"edges\" fill=\"none\">\n";
    for (size_t e = 0; e < layout.edges.size(); ++e) writeEdge(s, layout, e, labelFont);
    s += "</g>\n<g id=\"nodes\">\n";

    for (size_t i = 0; i < layout.items.size(); ++i)
        if (!layout::isFrameKind(layout.items[i].kind)) writeNode(s, layout.items[i], ids[i], o);
    s += "</g>\n</svg>\n";
    return s;
}

std::string graphToSvg(const ir::Graph& graph, const ir::GraphIndex& index, bool includeWeights,
                       const SvgOptions& options) {
    return layoutToSvg(flatLayout(graph, index, includeWeights, options), options);
}

layout::LayoutResult flatLayout(const ir::Graph& graph, const ir::GraphIndex& index, bool includeWeights,
                                const SvgOptions& options) {
    layout::GraphLayoutOptions go;
    go.includeWeights = includeWeights;
    go.lineHeight = options.lineHeight;
    const double scale = options.fontSize / 12;
    go.textWidth = [scale](std::string_view line) { return layout::defaultTextWidth(line) * scale; };
    // A higher-order op is drawn open, its subgraphs in frames, to any depth.
    bool holdsSubgraphs = false;
    for (const auto& n : graph.nodes) holdsSubgraphs = holdsSubgraphs || !n.subgraphs.empty();
    if (!holdsSubgraphs) return layout::computeLayout(layout::buildLayoutGraph(graph, index, go));
    modules::DrawingOptions d;
    d.items = go;
    return modules::layOutOpenRegions(graph, index, d);
}

std::string graphToSvgByModule(const ir::Graph& graph, const ir::GraphIndex& index, bool includeWeights, int depth,
                               const SvgOptions& options) {
    const auto tree = modules::inferModuleTree(graph, index);
    modules::DrawingOptions d;
    d.items.includeWeights = includeWeights;
    d.items.lineHeight = options.lineHeight;
    const double scale = options.fontSize / 12;
    d.items.textWidth = [scale](std::string_view line) { return layout::defaultTextWidth(line) * scale; };
    modules::ModuleDrawing drawing(graph, index, tree, d);
    if (depth < 0)
        drawing.expandInitial();
    else
        drawing.expandToDepth(depth);
    return layoutToSvg(drawing.compose(), options);
}

}  // namespace irscope::exporter
