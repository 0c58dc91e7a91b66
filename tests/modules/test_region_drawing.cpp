// Higher-order ops drawn open: a hand-built program with a torch.cond whose
// branches differ (one op on the true side, two on the false side). The cond
// is a region frame holding one frame per branch, each branch's ops inside
// its own frame and nowhere else; closing the region brings back the op box;
// the SVG export names regions and keeps ids unique when branches reuse names;
// a region inside a subgraph is drawn open too, to any depth.
#include <QtTest>

#include <memory>

#include "core/export/svg_export.h"
#include "core/ir/graph_index.h"
#include "core/modules/module_drawing.h"
#include "core/modules/module_inference.h"
#include "modules/ir_builder.h"

using namespace irscope;
using layout::ItemKind;

namespace {

// A branch taking one input "x_1" and running `ops` in a chain.
std::shared_ptr<const ir::Graph> condBranch(const std::vector<std::pair<std::string, std::string>>& ops) {
    test::IrBuilder b({"x_1"});
    std::string last = "x_1";
    for (const auto& [name, type] : ops) last = b.op(name, type, {last});
    b.output(last);
    return std::make_shared<const ir::Graph>(b.graph());
}

struct CondProgram {
    ir::Graph graph;
    int64_t cond = -1;
    CondProgram() {
        test::IrBuilder b;
        const auto s = b.op("sum_1", "aten.sum.default", {"x"});
        const auto gt = b.op("gt", "aten.gt.Scalar", {s});
        const auto c = b.op("cond", "torch.ops.higher_order.cond", {gt, "x"});
        const auto g = b.op("getitem", "<built-in function getitem>", {c});
        b.output(b.op("relu", "aten.relu.default", {g}));
        graph = b.graph();
        for (size_t i = 0; i < graph.nodes.size(); ++i)
            if (graph.nodes[i].name == "cond") cond = static_cast<int64_t>(i);
        auto& node = graph.nodes[static_cast<size_t>(cond)];
        // Both branches name their op "cos"/"neg" after the same input: ids must still be unique.
        node.subgraphs = {{"true_graph_0", condBranch({{"cos", "aten.cos.default"}})},
                          {"false_graph_0", condBranch({{"cos", "aten.cos.default"}, {"neg", "aten.neg.default"}})}};
        node.inputGroups = {1, 1};
    }
};

struct CondDrawn {
    CondProgram p;
    ir::GraphIndex index{p.graph};
    modules::ModuleTree tree = modules::inferModuleTree(p.graph, index);
    modules::ModuleDrawing drawing{p.graph, index, tree};
};

bool liesWithin(const layout::Rect& inner, const layout::Rect& outer) {
    return inner.x >= outer.x - 1e-6 && inner.y >= outer.y - 1e-6 && inner.right() <= outer.right() + 1e-6 &&
           inner.bottom() <= outer.bottom() + 1e-6;
}

}  // namespace

class TestRegionDrawing : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aCondIsAFrameAroundBothBranches() {
        CondDrawn d;
        d.drawing.expandAll();
        QVERIFY(d.drawing.isRegionOpen(d.p.cond));
        const auto r = d.drawing.compose();

        const layout::PlacedItem* region = nullptr;
        std::vector<const layout::PlacedItem*> frames;
        for (const auto& it : r.items) {
            if (it.kind == ItemKind::Region) region = &it;
            if (it.kind == ItemKind::Subgraph) frames.push_back(&it);
            QVERIFY2(!(it.kind == ItemKind::Op && it.region < 0 && it.name == "cond"), "the cond is not also a box");
        }
        QVERIFY(region);
        QCOMPARE(region->irIndex, d.p.cond);
        QCOMPARE(region->lines.front(), std::string("cond  [cond]"));
        QCOMPARE(frames.size(), size_t(2));
        QCOMPARE(frames[0]->name, std::string("true_graph_0"));
        QCOMPARE(frames[1]->name, std::string("false_graph_0"));
        QCOMPARE(frames[0]->lines.front(), std::string("true_graph_0  · 1 op"));
        QCOMPARE(frames[1]->lines.front(), std::string("false_graph_0  · 2 ops"));
        // Side by side, in argument order, both under the region's title.
        QVERIFY(frames[0]->rect.right() <= frames[1]->rect.x);
        for (const auto* f : frames) {
            QVERIFY(liesWithin(f->rect, region->rect));
            QVERIFY(f->rect.y >= region->rect.y + 20);
        }
        // Each branch's ops are drawn once, inside that branch's frame, marked as the branch's.
        std::map<std::pair<int32_t, std::string>, int> ops;
        for (const auto& it : r.items) {
            if (it.region < 0 || it.kind == ItemKind::Subgraph) continue;
            QCOMPARE(it.region, d.p.cond);
            QVERIFY(it.subgraph == 0 || it.subgraph == 1);
            QVERIFY2(liesWithin(it.rect, frames[static_cast<size_t>(it.subgraph)]->rect), it.name.c_str());
            if (it.kind == ItemKind::Op) ++ops[{it.subgraph, it.name}];
        }
        const std::map<std::pair<int32_t, std::string>, int> expected{
            {{0, "cos"}, 1}, {{1, "cos"}, 1}, {{1, "neg"}, 1}};
        QCOMPARE(ops, expected);
        // The branch's own edges are drawn: input -> cos -> output on the true side.
        int innerEdges = 0;
        for (const auto& e : r.edges) innerEdges += r.items[e.source].region >= 0 && r.items[e.target].region >= 0;
        QCOMPARE(innerEdges, 2 + 3);
        // The graph's nodes around the cond stay outside it.
        for (const auto& it : r.items)
            if (it.region < 0 && it.kind == ItemKind::Op) QVERIFY2(!liesWithin(it.rect, region->rect), it.name.c_str());
    }

    void closingTheRegionBringsBackTheOpBox() {
        CondDrawn d;
        d.drawing.expandAll();
        const auto open = d.drawing.compose();
        d.drawing.setRegionOpen(d.p.cond, false);
        QVERIFY(!d.drawing.isRegionOpen(d.p.cond));
        const auto closed = d.drawing.compose();
        int regionItems = 0, condBoxes = 0;
        for (const auto& it : closed.items) {
            regionItems += it.region >= 0 || it.kind == ItemKind::Region;
            condBoxes += it.kind == ItemKind::Op && it.name == "cond";
        }
        QCOMPARE(regionItems, 0);
        QCOMPARE(condBoxes, 1);
        QVERIFY(closed.items.size() < open.items.size());
        // Opening again gives the same picture as before.
        d.drawing.setRegionOpen(d.p.cond, true);
        const auto again = d.drawing.compose();
        QCOMPARE(again.items.size(), open.items.size());
        for (size_t i = 0; i < again.items.size(); ++i) {
            QCOMPARE(again.items[i].name, open.items[i].name);
            QCOMPARE(again.items[i].rect.x, open.items[i].rect.x);
            QCOMPARE(again.items[i].rect.y, open.items[i].rect.y);
        }
        // Ops without subgraphs have no region to open.
        d.drawing.setRegionOpen(0, true);
        QVERIFY(!d.drawing.isRegionOpen(0));
    }

    void theSvgNamesRegionsAndBranchItemsApart() {
        CondDrawn d;
        d.drawing.expandAll();
        const std::string svg = exporter::layoutToSvg(d.drawing.compose());
        QVERIFY(svg.find("class=\"node region\"") != std::string::npos);
        size_t subgraphs = 0;
        for (size_t at = svg.find("class=\"node subgraph\""); at != std::string::npos;
             at = svg.find("class=\"node subgraph\"", at + 1))
            ++subgraphs;
        QCOMPARE(subgraphs, size_t(2));
        // Both branches' "cos" are there, under different ids.
        QVERIFY(svg.find("id=\"in" + std::to_string(d.p.cond) + "_0_op_cos\"") != std::string::npos);
        QVERIFY(svg.find("id=\"in" + std::to_string(d.p.cond) + "_1_op_cos\"") != std::string::npos);
    }

    // A cond inside a while_loop's body inside a cond: frames in frames, every
    // op once, inside the frames of its subgraphs; items two levels deep carry
    // their frames and no subgraph index of the outer op; the SVG titles each
    // inner op with its position.
    void nestedRegionsAreFramesInFrames() {
        auto loopBody = [] {
            test::IrBuilder b({"i_1", "h_1"});
            const auto gt = b.op("gt", "aten.gt.Scalar", {"h_1"});
            const auto c = b.op("cond", "torch.ops.higher_order.cond", {gt, "h_1"});
            const auto g = b.op("getitem", "<built-in function getitem>", {c});
            b.output(g);
            ir::Graph body = b.graph();
            for (auto& n : body.nodes)
                if (n.name == "cond") {
                    n.subgraphs = {{"true_graph_0", condBranch({{"mul", "aten.mul.Tensor"}})},
                                   {"false_graph_0", condBranch({{"tanh", "aten.tanh.default"}})}};
                    n.inputGroups = {1, 1};
                }
            return std::make_shared<const ir::Graph>(body);
        };
        test::IrBuilder b;
        const auto w = b.op("while_loop", "torch.ops.higher_order.while_loop", {"x"});
        b.output(b.op("getitem", "<built-in function getitem>", {w}));
        ir::Graph g = b.graph();
        g.nodes[0].subgraphs = {{"while_loop_cond_graph_0", condBranch({{"lt", "aten.lt.Scalar"}})},
                                {"while_loop_body_graph_0", loopBody()}};
        g.nodes[0].inputGroups = {1, 0};
        const ir::GraphIndex index(g);
        exporter::SvgOptions o;
        const layout::LayoutResult r = exporter::flatLayout(g, index, true, o);
        const layout::PlacedItem* body = nullptr;
        std::vector<const layout::PlacedItem*> branches, mul;
        for (const auto& it : r.items) {
            if (it.kind == ItemKind::Subgraph && it.name == "while_loop_body_graph_0") body = &it;
            if (it.kind == ItemKind::Subgraph && it.name.ends_with("_graph_0") && it.name.find("while") == 0) continue;
            if (it.kind == ItemKind::Subgraph && (it.name == "true_graph_0" || it.name == "false_graph_0"))
                branches.push_back(&it);
            if (it.kind == ItemKind::Op && it.name == "mul") mul.push_back(&it);
        }
        QVERIFY(body);
        QCOMPARE(branches.size(), size_t{2});
        for (const auto* br : branches) {
            QVERIFY(liesWithin(br->rect, body->rect));
            QCOMPARE(br->subgraph, -1);
            QCOMPARE(br->position, std::string("while_loop/while_loop_body_graph_0/cond/") + br->name);
        }
        QCOMPARE(mul.size(), size_t{1});
        QCOMPARE(mul[0]->position, std::string("while_loop/while_loop_body_graph_0/cond/true_graph_0"));
        QCOMPARE(mul[0]->region, int64_t{0});
        QCOMPARE(mul[0]->subgraph, -1);
        const auto* trueBranch = branches[0]->name == "true_graph_0" ? branches[0] : branches[1];
        QVERIFY(liesWithin(mul[0]->rect, trueBranch->rect));
        const std::string svg = exporter::graphToSvg(g, index, true, o);
        QVERIFY(svg.find("<title>while_loop/while_loop_body_graph_0/cond/true_graph_0/mul</title>") !=
                std::string::npos);
        QVERIFY(svg.find("<title>while_loop/while_loop_body_graph_0/cond/false_graph_0/tanh</title>") !=
                std::string::npos);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestRegionDrawing)
#include "test_region_drawing.moc"
