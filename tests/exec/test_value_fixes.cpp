// What the window and the CLI say about values before a run:
// a half-precision checkpoint for a float32 IR is a pre-flight finding with
// a fix (cast to the IR's dtypes, said in each value's source); a value file
// read with progress can be cancelled and changes nothing; a state_dict of
// another model is said to be one; a typed constant's hint has the IR's
// shape and dtype. Expected numbers come from PyTorch: llama_block's
// weights in float16 and the block's output with them cast back
// (tests/data/make_numerics_fixture.py), or are checked by hand.
#include "exec_test_util.h"

#include "core/exec/debugger/debugger.h"
#include "core/exec/values/state_dict_match.h"
#include "core/exec/values/value_text.h"
#include "core/io/tensor_file.h"
#include "core/ir/json_io.h"

#include <QtTest/QtTest>
#include "test_support.h"

using namespace irscope;
using namespace irscope::exec;

using irscope::test::irPath;

namespace {

const WeightRow* rowOf(const std::vector<WeightRow>& rows, const std::string& original) {
    for (const auto& r : rows)
        if (r.originalName == original) return &r;
    return nullptr;
}

WeightRow row(char kind, WeightStatus status, const std::string& name = "w", bool constantLike = false) {
    WeightRow r;
    r.kind = kind;
    r.status = status;
    r.originalName = name;
    r.constantLike = constantLike;
    return r;
}

}  // namespace

class TestValueFixes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // float16 weights for a float32 IR: every weight is a finding before the
    // run (not a failure 12 nodes in, "rsqrt_cpu not implemented for 'Half'"),
    // and the run stops before the first node that reads one.
    void halfWeightsAreAPreflightFinding() {
        const ir::Graph g = ir::loadGraphFile(irPath("llama_block.json"));
        Debugger dbg(g);
        dbg.values().loadWeights(irPath("llama_block.weights_fp16.pt"));
        dbg.values().loadInputs(irPath("llama_block.inputs.pt"));
        const auto& missing = dbg.values().missing();
        QCOMPARE(missing.size(),
                 g.weightNameMapping.size() - 3);  // all but rope_cos, rope_sin, positions (IR constants)
        for (const auto& m : missing) {
            QVERIFY2(m.value.wrongDtype(), m.value.name.c_str());
            QCOMPARE(m.value.haveDtype, std::string("float16"));
            QCOMPARE(m.value.irDtype, std::string("float32"));
            QCOMPARE(m.remedy, Remedy::CastToIrDtype);
            QVERIFY(!m.awaitsStateDict);
        }
        QCOMPARE(rowOf(dbg.values().weightRows(), "up.weight")->status, WeightStatus::DTypeMismatch);
        const RunStatus s = dbg.runToEnd();
        QCOMPARE(s.reason, StopReason::MissingValue);
        QVERIFY2(s.message ==
                     "stopped before 'mul_1': it needs parameter 'norm1_weight' (p_norm1_weight), which is "
                     "float16 but the IR says float32; cast the weights to the IR's dtypes, then continue",
                 s.message.c_str());
        QVERIFY(dbg.nodeInfo(0).state != NodeState::Failed);
    }

    // Cast: no finding left, each cast value says where it came from, and
    // the run gives what PyTorch gives with the float16 weights in float32.
    void castWeightsRunAsPyTorchDoes() {
        const ir::Graph g = ir::loadGraphFile(irPath("llama_block.json"));
        Debugger dbg(g);
        dbg.values().loadWeights(irPath("llama_block.weights_fp16.pt"));
        dbg.values().loadInputs(irPath("llama_block.inputs.pt"));
        dbg.values().loadExpected(irPath("llama_block.expected_fp16cast.pt"));
        const size_t cast = dbg.values().setCastWeights(true);
        QCOMPARE(cast, g.weightNameMapping.size() - 3);
        QVERIFY(dbg.values().missing().empty());
        const std::vector<WeightRow> rows = dbg.values().weightRows();  // by value: keep it while `up` points into it
        const WeightRow* up = rowOf(rows, "up.weight");
        QCOMPARE(up->status, WeightStatus::Loaded);
        QCOMPARE(up->loadedDtype, std::string("float32"));
        QVERIFY2(up->source.find("llama_block.weights_fp16.pt (cast from float16)") != std::string::npos,
                 up->source.c_str());
        QCOMPARE(dbg.runToEnd().reason, StopReason::Finished);
        for (const auto& o : g.graphOutputs) {
            const auto d = dbg.tensors().compare(o.name);
            QVERIFY2(d.matched && d.maxAbsDiff < 1e-5, o.name.c_str());
        }
        // Off again: the file's own dtypes, and the findings back.
        QCOMPARE(dbg.values().setCastWeights(false), size_t(0));
        QCOMPARE(dbg.values().missing().size(), g.weightNameMapping.size() - 3);
        QVERIFY(dbg.values().settings().castWeights == false);
    }

    // A load stopped by its progress callback throws and leaves the values as they were.
    void cancelledLoadChangesNothing() {
        const ir::Graph g = ir::loadGraphFile(irPath("llama_block.json"));
        Debugger dbg(g);
        std::vector<double> seen;
        bool threw = false;
        try {
            dbg.values().load(ValueFile::Weights, irPath("llama_block.weights.pt"), [&seen](double f) {
                seen.push_back(f);
                return false;
            });
        } catch (const io::ReadCancelled&) {
            threw = true;
        }
        QVERIFY(threw);
        QCOMPARE(seen.size(), size_t(1));
        QCOMPARE(dbg.values().path(ValueFile::Weights), std::string());
        QCOMPARE(rowOf(dbg.values().weightRows(), "up.weight")->status, WeightStatus::Missing);
        // Not stopped: 0 to 0.7 while reading, then binding to 0.95, never backwards.
        seen.clear();
        dbg.values().load(ValueFile::Weights, irPath("llama_block.weights.pt"), [&seen](double f) {
            seen.push_back(f);
            return true;
        });
        QVERIFY(seen.size() >= 4);
        QCOMPARE(seen.front(), 0.0);
        QVERIFY(std::find(seen.begin(), seen.end(), 0.7) != seen.end());
        QCOMPARE(seen.back(), 0.95);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(rowOf(dbg.values().weightRows(), "up.weight")->status, WeightStatus::Loaded);
    }

    // cnn_bn's state_dict for simple_mlp: nothing binds, and it says so.
    void anotherModelsStateDictIsNamed() {
        const ir::Graph g = ir::loadGraphFile(irPath("simple_mlp.json"));
        Debugger dbg(g);
        dbg.values().loadWeights(irPath("cnn_bn.weights.pt"));
        const StateDictMatch m = stateDictMatch(dbg.values().weightRows());
        QCOMPARE(m.expected, 4);  // fc1/fc2 weight and bias
        QCOMPARE(m.found, 0);
        QVERIFY(m.unused > 0);
        const auto note = differentModelNote(m, "cnn_bn.weights.pt");
        QVERIFY(note);
        QVERIFY2(note->starts_with("cnn_bn.weights.pt: 0 of 4 parameters and buffers found in it; it holds ") &&
                     note->ends_with("it looks like a different model's state_dict"),
                 note->c_str());
        // Its own state_dict: no note.
        Debugger own(g);
        own.values().loadWeights(irPath("simple_mlp.weights.pt"));
        QVERIFY(!differentModelNote(stateDictMatch(own.values().weightRows()), "simple_mlp.weights.pt"));
    }

    // By hand: constants and non-persistent buffers are not expected from a
    // state_dict; a wrong-shape entry still counts as found (named elsewhere).
    void stateDictMatchCountsByHand() {
        const std::vector<WeightRow> rows{row('p', WeightStatus::Missing), row('b', WeightStatus::ShapeMismatch),
                                          row('c', WeightStatus::Missing, "mask", true),
                                          row('b', WeightStatus::Missing, "rope", true),
                                          row('?', WeightStatus::UnusedInFile, "encoder.w")};
        const StateDictMatch m = stateDictMatch(rows);
        QCOMPARE(m.expected, 2);
        QCOMPARE(m.found, 1);
        QCOMPARE(m.unused, 1);
        QVERIFY(!differentModelNote(m, "x.pt"));
        const StateDictMatch none = stateDictMatch({row('p', WeightStatus::Missing), rows[4]});
        QCOMPARE(*differentModelNote(none, "x.pt"),
                 std::string("x.pt: 0 of 1 parameter or buffer found in it; it holds 1 other name, 'encoder.w'; it "
                             "looks like a different model's state_dict"));
    }

    // The hint for a typed value follows the IR's shape and dtype (the hint
    // offered "[1, 0, 1, 0] float32" for an int64 [6] constant).
    void typedValueExamples() {
        QCOMPARE(exampleValueText({6}, "int64"), std::string("[1, 0, 1, 0, 1, 0]"));
        QCOMPARE(exampleValueText({2, 2}, "bool"), std::string("[[true, false], [true, false]]"));
        QCOMPARE(exampleValueText({}, "float32"), std::string("0.5"));
        QCOMPARE(exampleValueText({64, 64}, "float32"), std::string("a [64, 64] nested list, e.g. [[0.5, …], …]"));
        QCOMPARE(exampleValueText({-1, 4}, "float32"), std::string());
        // Every short example parses back to the shape it stands for.
        const auto parsed = parseNestedList(exampleValueText({2, 3}, "float32"));
        QCOMPARE(parsed.shape, (std::vector<int64_t>{2, 3}));
    }

    // The missing row of a meta extraction's int64 constant carries that example.
    void missingConstantRowHasItsExample() {
        const ir::Graph g = ir::loadGraphFile(irPath("llama_block.meta.json"));
        Debugger dbg(g);
        dbg.values().loadWeights(irPath("llama_block.weights.pt"));
        bool seen = false;
        for (const auto& m : dbg.values().missing())
            if (m.value.name == "c_positions") {
                seen = true;
                QCOMPARE(m.remedy, Remedy::EnterConstant);
                QCOMPARE(m.example, std::string("e.g. [1, 0, 1, 0, 1, 0] int64"));
            }
        QVERIFY(seen);
    }

    // A value many nodes read (a causal mask read by every attention) names
    // the first eight and counts the rest; a few are all named.
    void missingValueNamesItsFirstConsumers() {
        MissingValue m;
        m.name = "c_causal_mask";
        m.originalName = "causal_mask";
        m.kind = "constant";
        for (int i = 0; i < 3; ++i) m.nodes.push_back("sdpa_" + std::to_string(i));
        QCOMPARE(formatMissingValue(m),
                 std::string("c_causal_mask (constant 'causal_mask'), needed by: sdpa_0, sdpa_1, sdpa_2"));
        for (int i = 3; i < 16000; ++i) m.nodes.push_back("sdpa_" + std::to_string(i));
        QCOMPARE(formatMissingValue(m), std::string("c_causal_mask (constant 'causal_mask'), needed by: sdpa_0, "
                                                    "sdpa_1, sdpa_2, sdpa_3, sdpa_4, sdpa_5, sdpa_6, sdpa_7 and "
                                                    "15992 more"));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestValueFixes)
#include "test_value_fixes.moc"
