// Error metrics and the per-node report: every metric of every
// fixture case against what PyTorch computed (tests/data/
// make_error_metrics_fixture.py), the report's rows and first failing node on
// a graph whose reference has one value planted wrong, and its JSON and CSV;
// the default tolerance of each dtype against torch.testing.assert_close's own
// verdicts (tests/data/tolerances/make_tolerance_pairs.py).
#include "exec_test_util.h"

#include "core/exec/engine/session.h"
#include "core/exec/numerics/error_metric_table.h"
#include "core/exec/numerics/error_report.h"
#include "core/exec/numerics/error_report_file.h"
#include "core/io/tensor_file.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

namespace {

double valueOf(const json& v) {
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s == "nan") return std::nan("");
        return s == "inf" ? INFINITY : -INFINITY;
    }
    return v.get<double>();
}

// Same value: both NaN, the same infinity, or within 1e-9 relative (the sums
// run in another order than PyTorch's).
bool same(double got, double want) {
    if (std::isnan(want)) return std::isnan(got);
    if (std::isinf(want)) return got == want;
    return std::fabs(got - want) <= 1e-9 * std::max(1.0, std::fabs(want));
}

std::string readAll(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// x -> add(x, 1) -> mul(., 2) -> neg(.)
ir::Graph chain3() {
    return graphOf(json::array({meta("x", {3})}), json::array({meta("neg", {3})}),
                   json::array({node("add", "aten.add.Tensor", json::array({meta("x", {3}, "float32", "x")}),
                                     json::array({meta("add", {3})}), json{{"other", 1.0}}),
                                node("mul", "aten.mul.Tensor", json::array({meta("add", {3}, "float32", "add")}),
                                     json::array({meta("mul", {3})}), json{{"other", 2.0}}),
                                node("neg", "aten.neg.default", json::array({meta("mul", {3}, "float32", "mul")}),
                                     json::array({meta("neg", {3})}))}));
}

}  // namespace

class TestErrorMetrics : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Each pair's verdict and tolerance are assert_close's, recorded by PyTorch.
    void defaultTolerancesAreAssertClose() {
        const std::string dir = std::string(IRSCOPE_TEST_DATA) + "/tolerances/";
        const json fixture = json::parse(readAll(dir + "tolerance_pairs.json"));
        const io::TensorMap tensors = io::readTensorFile(dir + "tolerance_pairs.pt");
        QVERIFY(fixture["cases"].size() >= 30);
        int passing = 0, failing = 0;
        for (const json& c : fixture["cases"]) {
            const std::string name = c["name"].get<std::string>();
            const at::Tensor* actual = tensors.find(name + ".actual");
            const at::Tensor* expected = tensors.find(name + ".expected");
            QVERIFY2(actual && expected, name.c_str());
            const bool passes = c["passes"].get<bool>();
            (passes ? passing : failing)++;
            const ErrorMetrics m = errorMetrics(*actual, *expected);
            QVERIFY2(m.comparable(), (name + ": " + m.problem).c_str());
            QVERIFY2(m.ok == passes, (name + ": irscope says " + (m.ok ? "close" : "not close")).c_str());
            QVERIFY2(m.tolerance.rtol == c["rtol"].get<double>() && m.tolerance.atol == c["atol"].get<double>(),
                     (name + ": applied " + m.tolerance.text()).c_str());
            QCOMPARE(m.tolerance.exact, c["rtol"].get<double>() == 0 && c["atol"].get<double>() == 0);
            if (c["actual_dtype"] == c["expected_dtype"]) {  // run --expected calls a dtype change a mismatch
                const Comparison cmp = compareTensors(name, *actual, *expected);
                QVERIFY2(cmp.matched == passes, (name + ": compareTensors disagrees").c_str());
            }
        }
        QVERIFY(passing > 0 && failing > 0);
        // The text a verdict line shows.
        const Tolerance unset;
        QCOMPARE(QString::fromStdString(unset.applied(at::kFloat).text()),
                 QString("float32 default (rtol 1.3e-06, atol 1e-05)"));
        QCOMPARE(QString::fromStdString(unset.applied(at::kFloat, at::kBFloat16).text()),
                 QString("bfloat16 default (rtol 0.016, atol 1e-05)"));
        QCOMPARE(QString::fromStdString(unset.applied(at::kLong).text()), QString("exact"));
        const Tolerance both{1e-4, 1e-5}, rtolOnly{1e-4, std::nullopt};
        QCOMPARE(QString::fromStdString(both.applied(at::kHalf).text()), QString("rtol 0.0001, atol 1e-05 (set)"));
        QCOMPARE(QString::fromStdString(rtolOnly.applied(at::kHalf).text()),
                 QString("rtol 0.0001 (set), atol 1e-05 (float16 default)"));
        // The torch-free float32 band the error overlay is coloured by.
        QCOMPARE(QString::fromStdString(unset.appliedToFloat32().text()),
                 QString("float32 default (rtol 1.3e-06, atol 1e-05)"));
        QCOMPARE(QString::fromStdString(rtolOnly.appliedToFloat32().text()),
                 QString("rtol 0.0001 (set), atol 1e-05 (float32 default)"));
    }

    void metricsMatchPyTorch() {
        const std::string dir = std::string(IRSCOPE_TEST_DATA) + "/tensors/";
        const json fixture = json::parse(readAll(dir + "error_metrics.json"));
        const io::TensorMap tensors = io::readTensorFile(dir + "error_metrics.pt");
        const Tolerance tol{fixture["rtol"].get<double>(), fixture["atol"].get<double>()};
        QVERIFY(fixture["cases"].size() >= 10);
        for (const auto& [name, want] : fixture["cases"].items()) {
            const at::Tensor* a = tensors.find(name + ".actual");
            const at::Tensor* r = tensors.find(name + ".reference");
            QVERIFY2(a && r, name.c_str());
            const ErrorMetrics m = errorMetrics(*a, *r, tol);
            const QByteArray what = QByteArray::fromStdString(name);
            QVERIFY2(m.comparable(), what);
            QCOMPARE(m.exact, want["exact"].get<bool>());
            QCOMPARE(m.numel, want["numel"].get<int64_t>());
            QCOMPARE(m.mismatches, want["mismatches"].get<int64_t>());
            QCOMPARE(m.ok, want["ok"].get<bool>());
            QCOMPARE(m.nanActual, want["nan_actual"].get<int64_t>());
            QCOMPARE(m.infActual, want["inf_actual"].get<int64_t>());
            QCOMPARE(m.nanReference, want["nan_reference"].get<int64_t>());
            QCOMPARE(m.infReference, want["inf_reference"].get<int64_t>());
            const std::pair<const char*, double> got[] = {{"max_abs", m.maxAbs},   {"max_rel", m.maxRel},
                                                          {"mean_abs", m.meanAbs}, {"mse", m.mse},
                                                          {"cosine", m.cosine},    {"sqnr_db", m.sqnrDb}};
            for (const auto& [metric, value] : got)
                QVERIFY2(same(value, valueOf(want[metric])), qPrintable(QString("%1 %2: %3, PyTorch %4")
                                                                            .arg(what, metric)
                                                                            .arg(value, 0, 'g', 17)
                                                                            .arg(valueOf(want[metric]), 0, 'g', 17)));
        }
    }

    void incomparablePairsSayWhy() {
        const ErrorMetrics shape = errorMetrics(at::zeros({2, 3}), at::zeros({3, 2}));
        QCOMPARE(QString::fromStdString(shape.problem), QString("shape [2, 3], the reference's [3, 2]"));
        QVERIFY(!shape.ok);
        const ErrorMetrics kind = errorMetrics(at::zeros({2}, at::kLong), at::zeros({2}));
        QCOMPARE(QString::fromStdString(kind.problem), QString("dtype int64, the reference's float32"));
        QVERIFY(!errorMetrics(at::Tensor(), at::zeros({2})).comparable());
    }

    void reportFindsTheWrongNode() {
        // x = [1, 2, 3]: add = [2, 3, 4], mul = [4, 6, 8], neg = [-4, -6, -8].
        // The reference's mul has 6.5 for 6: mul fails alone (cumulative, but
        // neg ran on irscope's own mul, which was right).
        ir::Graph g = chain3();
        Session s(g);
        s.setInputs(mapOf({{"x", at::tensor({1.f, 2.f, 3.f})}}));
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        const io::TensorMap ref = mapOf({{"add", at::tensor({2.f, 3.f, 4.f})},
                                         {"mul", at::tensor({4.f, 6.5f, 8.f})},
                                         {"neg", at::tensor({-4.f, -6.f, -8.f})}});
        const ErrorReport rep = errorReport(s, ref);
        QCOMPARE(rep.outputs.size(), size_t{3});
        QVERIFY(rep.firstFailing);
        QCOMPARE(QString::fromStdString(rep.outputs[*rep.firstFailing].nodeName), QString("mul"));
        QVERIFY(rep.outputs[0].metrics.ok);
        QVERIFY(!rep.outputs[1].metrics.ok);
        QVERIFY(rep.outputs[2].metrics.ok);
        // mul: d = [0, -0.5, 0]: max abs 0.5, mean abs 1/6, MSE 1/12, max rel 0.5/6.5.
        const ErrorMetrics& m = rep.outputs[1].metrics;
        QVERIFY(same(m.maxAbs, 0.5));
        QVERIFY(same(m.meanAbs, 0.5 / 3));
        QVERIFY(same(m.mse, 0.25 / 3));
        QVERIFY(same(m.maxRel, 0.5 / 6.5));
        // SQNR = 10 log10((16 + 42.25 + 64) / 0.25).
        QVERIFY(same(m.sqnrDb, 10 * std::log10(122.25 / 0.25)));
        QCOMPARE(m.mismatches, int64_t{1});

        QTemporaryDir dir;
        const std::string jsonPath = dir.filePath("report.json").toStdString();
        writeErrorReport(rep, jsonPath);
        const json j = json::parse(readAll(jsonPath));
        QCOMPARE(j["mode"].get<std::string>(), std::string("cumulative"));
        QCOMPARE(j["first_failing"].get<std::string>(), std::string("mul"));
        QCOMPARE(j["nodes"].size(), size_t{3});
        QCOMPARE(j["nodes"][0]["sqnr_db"].get<std::string>(), std::string("inf"));  // equal: +inf, spelled
        QCOMPARE(j["nodes"][1]["output"].get<std::string>(), std::string("mul"));
        QCOMPARE(j["nodes"][1]["ok"].get<bool>(), false);
        QVERIFY(j["tolerance"]["rtol"].is_null());              // unset: each row's dtypes chose
        QCOMPARE(j["nodes"][1]["rtol"].get<double>(), 1.3e-6);  // float32's default
        QCOMPARE(j["nodes"][1]["atol"].get<double>(), 1e-5);

        const std::string csvPath = dir.filePath("report.CSV").toStdString();
        writeErrorReport(rep, csvPath);
        const std::string csv = readAll(csvPath);
        QVERIFY(csv.rfind("node,output,index,op_type,max_abs,", 0) == 0);
        QVERIFY2(csv.find("\nmul,mul,0,aten.mul.Tensor,0.5,") != std::string::npos, csv.c_str());

        QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeErrorReport(rep, dir.filePath("report.txt").toStdString()));
    }

    void reportNumbersReadAsPythonWritesThem_data() {
        // Python's repr(float), what json.dumps writes (checked in python3).
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("small") << 0.0005 << "0.0005";
        QTest::newRow("smaller") << 1.5e-05 << "1.5e-05";
        QTest::newRow("whole") << 100000.0 << "100000.0";
        QTest::newRow("big") << 1e16 << "1e+16";
        QTest::newRow("below big") << 1234567890123456.0 << "1234567890123456.0";
        QTest::newRow("fraction") << -123.456 << "-123.456";
        QTest::newRow("tiny") << 5e-324 << "5e-324";
        QTest::newRow("zero") << 0.0 << "0.0";
    }
    void reportNumbersReadAsPythonWritesThem() {
        QFETCH(double, value);
        QFETCH(QString, text);
        ErrorReport rep;
        OutputError row;
        row.nodeName = row.output = row.opType = "n";
        row.metrics.maxAbs = value;
        rep.outputs.push_back(row);
        const std::string out = errorReportJson(rep);
        const std::string want = "\"max_abs\": " + text.toStdString() + ",";
        QVERIFY2(out.find(want) != std::string::npos, out.c_str());
    }

    // Both writers take the metrics from one table (error_metric_table.h):
    // each metric's own value under its own key, in JSON and in CSV.
    void writersCarryEveryMetricUnderItsKey() {
        ErrorReport rep;
        OutputError row;
        row.nodeName = row.output = row.opType = "n";
        row.metrics.maxAbs = 1.5, row.metrics.maxRel = 2.5, row.metrics.meanAbs = 3.5;
        row.metrics.mse = 4.5, row.metrics.cosine = 0.25, row.metrics.sqnrDb = 42.5;
        rep.outputs.push_back(row);
        const std::map<std::string, std::string> want{{"max_abs", "1.5"}, {"max_rel", "2.5"}, {"mean_abs", "3.5"},
                                                      {"mse", "4.5"},     {"cosine", "0.25"}, {"sqnr_db", "42.5"}};
        QCOMPARE(kErrorMetrics.size(), want.size());
        const std::string json = errorReportJson(rep);
        for (const auto& [key, value] : want)
            QVERIFY2(json.find("\"" + key + "\": " + value + ",") != std::string::npos, (key + "\n" + json).c_str());
        const std::string csv = errorReportCsv(rep);
        const auto header = csv.substr(0, csv.find('\n'));
        const auto line = csv.substr(csv.find('\n') + 1);
        auto fields = [](const std::string& text) {
            std::vector<std::string> out;
            std::stringstream in(text);
            for (std::string f; std::getline(in, f, ',');) out.push_back(f);
            return out;
        };
        const auto names = fields(header), values = fields(line);
        for (const auto& [key, value] : want) {
            const auto at = std::find(names.begin(), names.end(), key);
            QVERIFY2(at != names.end(), (key + " not in " + header).c_str());
            QCOMPARE(values[static_cast<size_t>(at - names.begin())], value);
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestErrorMetrics)
#include "test_error_metrics.moc"
