// The op-schema table the torch-free floor carries (core/ir/op_schema_table.h)
// and its schema parser (core/ir/op_schema.h). The schemas are libtorch's own
// text; the expected argument kinds here are read off the schemas by hand.
// tests/exec/test_op_binding.cpp checks every entry against libtorch's parse.
#include <QtTest>

#include "core/ir/op_node.h"
#include "core/ir/op_schema.h"
#include "core/ir/op_schema_table.h"

using namespace irscope::ir;

class TestOpSchemaTable : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parsesArgumentsAndTheirKinds() {
        auto s = parseOpSchema("aten::clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor");
        QVERIFY(s);
        QCOMPARE(s->opType, std::string("aten.clamp.Tensor"));
        QCOMPARE(s->args.size(), size_t(3));
        QCOMPARE(s->args[0].name, std::string("self"));
        QVERIFY(s->args[0].kind == SchemaArgKind::Tensor);
        QVERIFY(!s->args[0].hasDefault);
        QCOMPARE(s->args[2].name, std::string("max"));
        QVERIFY(s->args[2].kind == SchemaArgKind::OptionalTensor);
        QVERIFY(s->args[2].hasDefault);
    }

    void readsAliasAnnotationsListsAndKeywordOnlyArguments() {
        auto s = parseOpSchema(
            "aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)");
        QVERIFY(s);
        QCOMPARE(s->opType, std::string("aten.index_put_.default"));
        QVERIFY(s->args[0].writes);
        QCOMPARE(s->args[0].type, std::string("Tensor"));
        QVERIFY(s->args[1].kind == SchemaArgKind::OptionalTensorList);
        QVERIFY(!s->args[2].writes);
        QVERIFY(s->args[3].kind == SchemaArgKind::Other);

        s = parseOpSchema("aten::cat(Tensor[] tensors, int dim=0) -> Tensor");
        QVERIFY(s && s->args[0].kind == SchemaArgKind::TensorList);
        s = parseOpSchema("aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]");
        QVERIFY(s && s->args[0].kind == SchemaArgKind::Tensor && !s->args[0].writes);

        s = parseOpSchema(
            "aten::var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, "
            "bool keepdim=False) -> Tensor");
        QVERIFY(s);
        QCOMPARE(s->args.size(), size_t(4));
        QVERIFY(!s->args[1].kwargOnly);
        QCOMPARE(s->args[1].type, std::string("int[1]?"));
        QVERIFY(s->args[2].kwargOnly && s->args[3].kwargOnly);
    }

    // Defaults hold brackets and quoted strings; a comma inside them is not a separator.
    void defaultsWithCommasStayWhole() {
        auto s = parseOpSchema("x::f(Tensor self, int[2] stride=[1, 1], str mode=\"a,b\", str q='c)d') -> Tensor");
        QVERIFY(s);
        QCOMPARE(s->args.size(), size_t(4));
        QCOMPARE(s->args[1].name, std::string("stride"));
        QCOMPARE(s->args[2].name, std::string("mode"));
        QCOMPARE(s->args[3].name, std::string("q"));
        QCOMPARE(s->opType, std::string("x.f.default"));
        QVERIFY(parseOpSchema("aten::relu(Tensor self) -> Tensor")->args.size() == 1);
        auto any = parseOpSchema("static_runtime::dict_unpack(...) -> ...");
        QVERIFY(any && any->varargs && any->args.empty());
    }

    void malformedSchemasAreRefused() {
        QVERIFY(!parseOpSchema(""));
        QVERIFY(!parseOpSchema("relu(Tensor self) -> Tensor"));  // no namespace
        QVERIFY(!parseOpSchema("aten::relu(Tensor self"));       // unclosed
        QVERIFY(!parseOpSchema("aten::relu(self) -> Tensor"));   // no type
        QVERIFY(!parseOpSchema("aten::(Tensor self) -> Tensor"));
    }

    // The generated table: every entry parses to its own op type.
    void everyEntryParses() {
        QVERIFY2(opSchemaCount() > 2000, "the build's dispatcher lists thousands of ops");
        for (size_t i = 0; i < opSchemaCount(); ++i) {
            const std::string_view opType = opSchemaTypeAt(i);
            if (i > 0) QVERIFY(opSchemaTypeAt(i - 1) < opType);  // sorted: looked up by bisection
            const OpSchema* s = findOpSchema(opType);
            QVERIFY2(s, std::string(opType).c_str());
            QCOMPARE(s->opType, std::string(opType));
        }
        QVERIFY(opSchemaTypeAt(opSchemaCount()).empty());
    }

    void knowsAtenAndWhatThe2xShimsAdd() {
        QVERIFY(isKnownOpType("aten.relu.default"));
        QVERIFY(isKnownOpType("aten.add.Tensor"));
        QVERIFY(isKnownOpType(kGetitemOp));
        QVERIFY(!isKnownOpType("aten.relu"));
        QVERIFY(!isKnownOpType("aten.no_such_op.default"));
        QVERIFY(!isKnownOpType("mylib.custom.default"));
        QVERIFY(!findOpSchema("aten.no_such_op.default"));
        // PyTorch 2.x ops, whichever libtorch the build links.
        const OpSchema* rms = findOpSchema("aten.rms_norm.default");
        QVERIFY(rms);
        QCOMPARE(rms->args.at(2).name, std::string("weight"));
        QVERIFY(rms->args.at(2).kind == SchemaArgKind::OptionalTensor);
        // var.correction as 2.x declares it (1.13's took `int? correction`).
        const OpSchema* var = findOpSchema("aten.var.correction");
        QVERIFY(var);
        QCOMPARE(var->args.at(2).name, std::string("correction"));
        QCOMPARE(var->args.at(2).type, std::string("Scalar?"));
        const OpSchema* bn = findOpSchema("aten.batch_norm.default");
        QVERIFY(bn);
        QCOMPARE(bn->args.at(3).name, std::string("running_mean"));
        QVERIFY(bn->args.at(3).kind == SchemaArgKind::OptionalTensor);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestOpSchemaTable)
#include "test_op_schema_table.moc"
