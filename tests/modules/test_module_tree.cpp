// ModuleTree and its helpers on hand-checked inputs: paths, ancestors,
// counts, child order, ModuleList detection, natural order, bundle patterns.
#include <QtTest>

#include "core/modules/module_drawing.h"
#include "core/modules/module_tree.h"

using namespace irscope::modules;

class TestModuleTree : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void weightModulePathDropsTheLastPart() {
        QCOMPARE(std::string(weightModulePath("layers.3.self_attn.q_proj.weight")),
                 std::string("layers.3.self_attn.q_proj"));
        QCOMPARE(std::string(weightModulePath("scale")), std::string(""));
        QCOMPARE(std::string(weightModulePath("a.b")), std::string("a"));
    }

    void naturalOrderCountsNumbers() {
        QVERIFY(naturalLess("layers.9", "layers.10"));
        QVERIFY(!naturalLess("layers.10", "layers.9"));
        QVERIFY(naturalLess("layers.2.mlp", "layers.10.attn"));
        QVERIFY(naturalLess("a", "b"));
        QVERIFY(naturalLess("x1", "x1y"));
        QVERIFY(!naturalLess("same", "same"));
        QVERIFY(naturalLess("experts.007", "experts.8"));
        // A difference inside a digit run that starts in the shared prefix.
        QVERIFY(naturalLess("experts.19.w", "experts.100.w"));
        QVERIFY(!naturalLess("experts.100.w", "experts.19.w"));
        QVERIFY(naturalLess("p_12_a", "p_120_a"));
        QVERIFY(naturalLess("layers.1.x", "layers.1.y"));
        QVERIFY(naturalLess("ab", "abc"));
        QVERIFY(!naturalLess("abc", "ab"));
        QVERIFY(naturalLess("x01", "x1") != naturalLess("x1", "x01"));  // equal by value, still ordered
    }

    void ancestorsAndCounts() {
        ModuleTree t;
        const ModuleId q = t.ensure("layers.1.attn.q");
        const ModuleId mlp = t.ensure("layers.0.mlp");
        const ModuleId layers = t.find("layers");
        const ModuleId l0 = t.find("layers.0"), l1 = t.find("layers.1");
        QVERIFY(layers > 0 && l0 > 0 && l1 > 0);
        QCOMPARE(t.module(q).depth, 4);
        QCOMPARE(t.module(q).name, std::string("q"));
        QCOMPARE(t.commonAncestor(q, mlp), layers);
        QCOMPARE(t.commonAncestor(q, l1), l1);
        QCOMPARE(t.commonAncestor(kNoModule, mlp), mlp);
        QVERIFY(t.isAncestorOrSelf(layers, q));
        QVERIFY(!t.isAncestorOrSelf(l0, q));
        QCOMPARE(t.childToward(layers, q), l1);
        QCOMPARE(t.childToward(l0, q), kNoModule);
        QCOMPARE(t.pathFromRoot(q).size(), size_t(5));

        // Nodes: 0 and 1 in q, 2 in mlp; layers.1 runs first, so it is listed first.
        t.setNodeCount(3);
        t.assignNode(0, q);
        t.assignNode(1, q);
        t.assignNode(2, mlp);
        t.finish({{q, 16}, {mlp, 4}, {mlp, 4}});
        QCOMPARE(t.module(kRootModule).opCount, int64_t(3));
        QCOMPARE(t.module(layers).opCount, int64_t(3));
        QCOMPARE(t.module(l1).opCount, int64_t(2));
        QCOMPARE(t.module(l1).weightCount, int64_t(1));
        QCOMPARE(t.module(layers).parameterCount, int64_t(24));
        QCOMPARE(t.module(layers).firstNode, int64_t(0));
        QCOMPARE(t.module(l0).firstNode, int64_t(2));
        QCOMPARE(t.module(layers).children, (std::vector<ModuleId>{l1, l0}));
        QVERIFY(t.module(layers).isList);
        QVERIFY(!t.module(l0).isList);
        QCOMPARE(t.module(q).nodes, (std::vector<int64_t>{0, 1}));
    }

    void childrenWithoutOpsComeLastInNaturalOrder() {
        ModuleTree t;
        const ModuleId b10 = t.ensure("b.10"), b9 = t.ensure("b.9"), b2 = t.ensure("b.2");
        t.setNodeCount(1);
        t.assignNode(0, b10);
        t.finish({});
        QCOMPARE(t.module(t.find("b")).children, (std::vector<ModuleId>{b10, b2, b9}));
    }

    void bundlePatterns() {
        QCOMPARE(bundlePattern({"e.0.w", "e.1.w", "e.2.w"}), std::string("e.{0..2}.w"));
        QCOMPARE(bundlePattern({"e.0.w", "e.2.w"}), std::string("e.*.w"));  // not contiguous
        QCOMPARE(bundlePattern({"a.0.w", "b.1.w"}), std::string(""));       // two components differ
        QCOMPARE(bundlePattern({"e.0.w", "e.1.w.x"}), std::string(""));     // different depth
        QCOMPARE(bundlePattern({"same", "same"}), std::string("same"));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestModuleTree)
#include "test_module_tree.moc"
