// A backend check's report read back (core/export/backend_report.h): the
// shape check-backend writes (errors against float64, "inf" for an exact
// fault) and the shape check-dump writes (max_abs, inherits); one number per
// node, in units of the tolerance, coloured green up to 1 and red past it;
// bad reports named with the place and the reason.
#include <QtTest/QtTest>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/export/backend_report.h"

using namespace irscope::exporter;

namespace {

const char* const kCheckBackend = R"({
  "backend": "inductor", "program": "llama.pt2", "depth": 1,
  "groups": [
    {"group": "layers.0", "module": "layers.0", "nodes": ["mm", "add"], "max_abs": 1e-6,
     "vs_fp64": {"backend": 2e-6, "eager": 1e-6}, "ratio": 2.0, "allowed": 4e-6, "verdict": "float noise"},
    {"group": "layers.1", "module": "layers.1", "nodes": ["mm_1", "add_1", "mul"], "max_abs": 0.5,
     "vs_fp64": {"backend": 0.5, "eager": 1e-6}, "ratio": 500000, "allowed": 5e-6, "verdict": "backend fault"},
    {"group": "norm", "module": "norm", "nodes": ["rsqrt"], "max_abs": "inf",
     "vs_fp64": {"backend": "inf", "eager": 0}, "ratio": "inf", "allowed": 1e-5, "verdict": "backend fault",
     "error": "compile failed: no kernel"}
  ],
  "first_fault": {"group": "layers.1", "module": "layers.1", "nodes": ["mul"], "max_abs": 0.5,
                  "vs_fp64": {"backend": 0.5, "eager": 1e-6}, "allowed": 5e-6, "verdict": "backend fault"},
  "end_to_end": null
})";

const char* const kCheckDump = R"({
  "backend": "dump", "program": "cnn.pt2", "dump": "npu_dump.pt",
  "groups": [
    {"group": "stem", "module": "stem", "nodes": ["conv2d", "relu"], "max_abs": 0.0, "allowed": 1e-5,
     "verdict": "ok", "detail": "0 from the program's own run"},
    {"group": "block2", "module": "block2", "nodes": ["conv2d_2"], "max_abs": 0.001, "vs_program": 0.08,
     "allowed": 0.002, "verdict": "inherits", "detail": "an earlier group's error"}
  ],
  "first_fault": null
})";

std::string failureOf(const std::string& text) {
    try {
        parseBackendReport(text, "r.json");
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestBackendReport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsCheckBackendsReport() {
        QVERIFY(isBackendReport(kCheckBackend));
        const BackendReport r = parseBackendReport(kCheckBackend, "r.json");
        QCOMPARE(r.backend, std::string("inductor"));
        QCOMPARE(r.program, std::string("llama.pt2"));
        QCOMPARE(r.groups.size(), size_t(3));
        QCOMPARE(r.groups[1].nodes, (std::vector<std::string>{"mm_1", "add_1", "mul"}));
        QCOMPARE(r.groups[1].error, 0.5);
        QCOMPARE(r.groups[1].eagerError, 1e-6);
        QVERIFY(r.groups[1].fault());
        QVERIFY(!r.groups[0].fault());
        QVERIFY(std::isinf(r.groups[2].error));
        QCOMPARE(r.groups[2].failure, std::string("compile failed: no kernel"));
        QVERIFY(r.firstFault);
        QCOMPARE(r.firstFault->nodes, std::vector<std::string>{"mul"});
        // In units of the tolerance: 2e-6 of 4e-6 allowed, 0.5 of 5e-6.
        QCOMPARE(r.groups[0].excess(), 0.5);
        QCOMPARE(r.groups[1].excess(), 100000.0);
    }

    void readsCheckDumpsReport() {
        const BackendReport r = parseBackendReport(kCheckDump, "r.json");
        QCOMPARE(r.backend, std::string("dump"));
        QCOMPARE(r.groups.size(), size_t(2));
        QCOMPARE(r.groups[1].verdict, std::string("inherits"));
        QCOMPARE(r.groups[1].error, 0.001);  // against the group recomputed, not the program's run
        QCOMPARE(r.groups[1].eagerError, -1.0);
        QCOMPARE(r.groups[1].excess(), 0.5);
        QCOMPARE(r.groups[1].detail, std::string("an earlier group's error"));
        QVERIFY(!r.firstFault);
    }

    void oneNumberPerNodeColouredByTheTolerance() {
        const NodeData d = backendNodeData(parseBackendReport(kCheckBackend, "r.json"), "Llama");
        QCOMPARE(d.graphId, std::string("Llama"));
        std::map<std::string, double> v(d.values.begin(), d.values.end());
        QCOMPARE(v.size(), size_t(6));
        QCOMPARE(v["mm"], 0.5);
        QCOMPARE(v["mul"], 100000.0);
        QVERIFY(std::isinf(v["rsqrt"]));
        QCOMPARE(nodeDataColour(d.thresholds, v["mm"]), std::string("#2e9d4f"));
        QCOMPARE(nodeDataColour(d.thresholds, 1.0), std::string("#2e9d4f"));
        QCOMPARE(nodeDataColour(d.thresholds, 1.01), std::string("#d32f2f"));
        QCOMPARE(nodeDataColour(d.thresholds, v["rsqrt"]), std::string("#d32f2f"));
        // What the bands mean, for the overlay's legend.
        QCOMPARE(d.title, std::string("inductor: error ÷ allowed"));
        QCOMPARE(d.thresholds.front().label, std::string("≤ 1: float noise"));
        QCOMPARE(d.thresholds.back().label, std::string("> 1: backend fault"));
        // Node data files are not reports.
        QVERIFY(!isBackendReport(R"({"results": {"mm": {"value": 1}}})"));
        QVERIFY(!isBackendReport("not json"));
    }

    void badReportsSayWhereAndWhy() {
        QCOMPARE(failureOf("{"), std::string("r.json: byte 2: not JSON"));
        QCOMPARE(failureOf("[]"),
                 std::string("r.json: expected a backend check's report: an object with \"backend\" and \"groups\""));
        QCOMPARE(failureOf(R"({"backend": "x"})"), std::string("r.json: groups: expected an array of groups"));
        QCOMPARE(failureOf(R"({"backend": "x", "groups": [{"group": "g", "verdict": "ok", "nodes": [1]}]})"),
                 std::string("r.json: groups[0].nodes[0]: expected a node name, got 1"));
        QCOMPARE(failureOf(R"({"backend": "x", "groups": [{"group": "g", "verdict": "ok", "nodes": []}]})"),
                 std::string("r.json: groups[0]: no \"vs_fp64\" or \"max_abs\": the group's error is not there"));
        QCOMPARE(failureOf(R"({"backend": "x", "groups": [{"group": "g", "nodes": [], "max_abs": 1}]})"),
                 std::string("r.json: groups[0]: no \"verdict\""));
        QCOMPARE(
            failureOf(
                R"({"backend": "x", "groups": [{"group": "g", "verdict": "ok", "nodes": [], "max_abs": "lots"}]})"),
            std::string("r.json: groups[0].max_abs: expected a number, got \"lots\""));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestBackendReport)
#include "test_backend_report.moc"
