#include "core/exec/error_report_file.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/io/catalog/tensor_format.h"
#include "core/ir/file_replace.h"

namespace irscope::exec {
namespace {

using json = nlohmann::ordered_json;

json number(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
}

std::string numberText(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

// RFC 4180: quoted when it holds a comma, a quote or a line break.
std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

}  // namespace

std::string errorReportJson(const ErrorReport& report) {
    json nodes = json::array();
    for (const auto& row : report.outputs) {
        const ErrorMetrics& m = row.metrics;
        json j = {{"node", row.nodeName},
                  {"output", row.output},
                  {"index", row.index},
                  {"op_type", row.opType},
                  {"max_abs", number(m.maxAbs)},
                  {"max_rel", number(m.maxRel)},
                  {"mean_abs", number(m.meanAbs)},
                  {"mse", number(m.mse)},
                  {"cosine", number(m.cosine)},
                  {"sqnr_db", number(m.sqnrDb)},
                  {"ok", m.ok},
                  {"exact", m.exact},
                  {"numel", m.numel},
                  {"mismatches", m.mismatches},
                  {"nan_actual", m.nanActual},
                  {"inf_actual", m.infActual},
                  {"nan_reference", m.nanReference},
                  {"inf_reference", m.infReference}};
        if (!m.problem.empty()) j["problem"] = m.problem;
        nodes.push_back(std::move(j));
    }
    json out = {{"tolerance", {{"rtol", report.tolerance.rtol}, {"atol", report.tolerance.atol}}},
                {"mode", report.mode},
                {"nodes", std::move(nodes)},
                {"first_failing", report.firstFailing ? json(report.outputs[*report.firstFailing].nodeName) : json()},
                {"not_in_reference", report.notInReference},
                {"not_computed", report.notComputed}};
    return out.dump(2) + "\n";
}

std::string errorReportCsv(const ErrorReport& report) {
    std::string out =
        "node,output,index,op_type,max_abs,max_rel,mean_abs,mse,cosine,sqnr_db,ok,exact,numel,mismatches,"
        "nan_actual,inf_actual,nan_reference,inf_reference,problem\n";
    for (const auto& row : report.outputs) {
        const ErrorMetrics& m = row.metrics;
        out += csvField(row.nodeName) + "," + csvField(row.output) + "," + std::to_string(row.index) + "," +
               csvField(row.opType) + "," + numberText(m.maxAbs) + "," + numberText(m.maxRel) + "," +
               numberText(m.meanAbs) + "," + numberText(m.mse) + "," + numberText(m.cosine) + "," +
               numberText(m.sqnrDb) + "," + (m.ok ? "true" : "false") + "," + (m.exact ? "true" : "false") + "," +
               std::to_string(m.numel) + "," + std::to_string(m.mismatches) + "," + std::to_string(m.nanActual) + "," +
               std::to_string(m.infActual) + "," + std::to_string(m.nanReference) + "," +
               std::to_string(m.infReference) + "," + csvField(m.problem) + "\n";
    }
    return out;
}

void writeErrorReport(const ErrorReport& report, const std::string& path) {
    const std::string ext = io::lowerExtension(path);
    std::string text;
    if (ext == ".json")
        text = errorReportJson(report);
    else if (ext == ".csv")
        text = errorReportCsv(report);
    else
        throw std::runtime_error(path + ": the report is written as .json or .csv, not '" + ext + "'");
    ir::replaceFileContents(path, text);
}

}  // namespace irscope::exec
