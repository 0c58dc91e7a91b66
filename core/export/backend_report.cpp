#include "core/export/backend_report.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace irscope::exporter {
namespace {

using ReportJson = nlohmann::json;

[[noreturn]] void refuseReport(const std::string& file, const std::string& where, const std::string& why) {
    std::string message = file;
    message.append(": ");
    if (!where.empty()) {
        message.append(where);
        message.append(": ");
    }
    message.append(why);
    throw std::runtime_error(message);
}

// A number, or the words the reports use for what JSON cannot write.
double reportNumber(const ReportJson& v, const std::string& file, const std::string& where) {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s == "inf" || s == "Infinity") return std::numeric_limits<double>::infinity();
        if (s == "-inf" || s == "-Infinity") return -std::numeric_limits<double>::infinity();
        if (s == "nan" || s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    }
    refuseReport(file, where, "expected a number, got " + v.dump());
}

std::string reportString(const ReportJson& obj, const char* key, const std::string& file, const std::string& where,
                         bool required) {
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) {
        if (required) refuseReport(file, where, std::string("no \"") + key + "\"");
        return {};
    }
    if (!it->is_string()) refuseReport(file, where + "." + key, "expected a string, got " + it->dump());
    return it->get<std::string>();
}

BackendGroup reportGroup(const ReportJson& g, const std::string& file, const std::string& where) {
    if (!g.is_object()) refuseReport(file, where, "expected an object with \"group\", \"nodes\" and \"verdict\"");
    BackendGroup out;
    out.group = reportString(g, "group", file, where, true);
    out.module = reportString(g, "module", file, where, false);
    out.verdict = reportString(g, "verdict", file, where, true);
    out.failure = reportString(g, "error", file, where, false);
    out.detail = reportString(g, "detail", file, where, false);
    const auto nodes = g.find("nodes");
    if (nodes == g.end() || !nodes->is_array()) refuseReport(file, where + ".nodes", "expected an array of node names");
    for (size_t k = 0; k < nodes->size(); ++k) {
        if (!(*nodes)[k].is_string())
            refuseReport(file, where + ".nodes[" + std::to_string(k) + "]",
                         "expected a node name, got " + (*nodes)[k].dump());
        out.nodes.push_back((*nodes)[k].get<std::string>());
    }
    // Against float64 when the check ran it (check-backend); else the dump's
    // own difference (check-dump: against the group recomputed).
    if (const auto fp64 = g.find("vs_fp64"); fp64 != g.end() && fp64->is_object()) {
        if (const auto b = fp64->find("backend"); b != fp64->end())
            out.error = reportNumber(*b, file, where + ".vs_fp64.backend");
        if (const auto e = fp64->find("eager"); e != fp64->end())
            out.eagerError = reportNumber(*e, file, where + ".vs_fp64.eager");
    } else if (const auto m = g.find("max_abs"); m != g.end()) {
        out.error = reportNumber(*m, file, where + ".max_abs");
    } else {
        refuseReport(file, where, "no \"vs_fp64\" or \"max_abs\": the group's error is not there");
    }
    if (const auto a = g.find("allowed"); a != g.end()) out.allowed = reportNumber(*a, file, where + ".allowed");
    return out;
}

}  // namespace

double BackendGroup::excess() const {
    if (std::isnan(error)) return std::numeric_limits<double>::infinity();
    if (allowed > 0) return error / allowed;
    // No tolerance recorded: the verdict alone places it.
    return fault() ? std::numeric_limits<double>::infinity() : (error > 0 ? 1.0 : 0.0);
}

bool isBackendReport(const std::string& text) {
    const ReportJson doc = ReportJson::parse(text, nullptr, false);
    return doc.is_object() && doc.contains("backend") && doc.contains("groups");
}

BackendReport parseBackendReport(const std::string& text, const std::string& file) {
    ReportJson doc;
    try {
        doc = ReportJson::parse(text);
    } catch (const ReportJson::parse_error& e) {
        refuseReport(file, "byte " + std::to_string(e.byte), "not JSON");
    }
    if (!doc.is_object())
        refuseReport(file, "", "expected a backend check's report: an object with \"backend\" and \"groups\"");
    BackendReport report;
    report.backend = reportString(doc, "backend", file, "", true);
    report.program = reportString(doc, "program", file, "", false);
    const auto groups = doc.find("groups");
    if (groups == doc.end() || !groups->is_array()) refuseReport(file, "groups", "expected an array of groups");
    for (size_t k = 0; k < groups->size(); ++k)
        report.groups.push_back(reportGroup((*groups)[k], file, "groups[" + std::to_string(k) + "]"));
    if (const auto first = doc.find("first_fault"); first != doc.end() && !first->is_null())
        report.firstFault = reportGroup(*first, file, "first_fault");
    return report;
}

NodeData backendNodeData(const BackendReport& report, const std::string& graphId) {
    NodeData data;
    data.graphId = graphId;
    std::map<std::string, double> worst;
    std::vector<std::string> order;
    const auto add = [&](const BackendGroup& g) {
        const double v = g.excess();
        for (const auto& n : g.nodes) {
            auto [it, fresh] = worst.emplace(n, v);
            if (fresh)
                order.push_back(n);
            else
                it->second = std::max(it->second, v);
        }
    };
    for (const auto& g : report.groups) add(g);
    if (report.firstFault) add(*report.firstFault);
    for (const auto& n : order) data.values.emplace_back(n, worst[n]);
    data.thresholds = {{1.0, "#2e9d4f", "≤ 1: float noise"},
                       {std::numeric_limits<double>::infinity(), "#d32f2f", "> 1: backend fault"}};
    data.title = report.backend + ": error ÷ allowed";
    return data;
}

}  // namespace irscope::exporter
