#include "core/exec/numerics/error_report_file.h"

#include "core/exec/numerics/error_metric_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/io/catalog/tensor_format.h"
#include "core/ir/file_replace.h"

namespace irscope::exec {
namespace {

using json = nlohmann::ordered_json;

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

// Written by hand, not through a json object: a report over a 100,000-node
// run has 1.9 million fields, and building the tree cost as much as the run.
// The layout is what json::dump(2) gives, so the file reads the same.
class JsonRowWriter {
public:
    explicit JsonRowWriter(std::string& out) : out_(out) {}
    void string(const char* key, const std::string& v) {
        field(key);
        const bool plain = std::all_of(
            v.begin(), v.end(), [](char c) { return c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20; });
        if (plain) {  // node names nearly always are
            out_ += '"';
            out_ += v;
            out_ += '"';
        } else {
            out_ += json(v).dump();
        }
    }
    void integer(const char* key, int64_t v) {
        field(key);
        char buf[24];
        out_.append(buf, static_cast<size_t>(std::to_chars(buf, buf + sizeof buf, v).ptr - buf));
    }
    void boolean(const char* key, bool v) {
        field(key);
        out_ += v ? "true" : "false";
    }
    void real(const char* key, double v) {
        field(key);
        if (!std::isfinite(v)) {
            out_ += std::isnan(v) ? "\"nan\"" : v > 0 ? "\"inf\"" : "\"-inf\"";
            return;
        }
        appendPythonRepr(v);
    }
    void open() {
        out_ += "    {";
        first_ = true;
    }
    void close() { out_ += "\n    }"; }

private:
    // The shortest digits that read back exactly, laid out as Python's
    // repr(float) (what json.dumps writes): fixed for exponents -4 to 15
    // ("0.0005", "100000.0"), else scientific ("1e-05", "1.5e+16").
    void appendPythonRepr(double v) {
        char buf[40];
        const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
        const std::string_view sci(buf, static_cast<size_t>(r.ptr - buf));
        const size_t e = sci.find('e');
        int exp = 0;
        std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+'), sci.data() + sci.size(), exp);
        if (exp < -4 || exp >= 16) {
            out_ += sci;
            return;
        }
        const bool negative = sci[0] == '-';
        std::string digits;
        for (char c : sci.substr(negative ? 1 : 0, e - (negative ? 1 : 0)))
            if (c != '.') digits += c;
        if (negative) out_ += '-';
        if (exp < 0) {
            out_ += "0.";
            out_.append(static_cast<size_t>(-exp - 1), '0');
            out_ += digits;
            return;
        }
        const auto whole = static_cast<size_t>(exp) + 1;
        if (digits.size() <= whole) {
            out_ += digits;
            out_.append(whole - digits.size(), '0');
            out_ += ".0";
        } else {
            out_.append(digits, 0, whole);
            out_ += '.';
            out_.append(digits, whole);
        }
    }

    void field(const char* key) {
        out_ += first_ ? "\n      \"" : ",\n      \"";
        first_ = false;
        out_ += key;
        out_ += "\": ";
    }
    std::string& out_;
    bool first_ = true;
};

}  // namespace

std::string errorReportJson(const ErrorReport& report) {
    std::string out;
    out.reserve(128 + report.outputs.size() * 480);
    // The header is short: json indents it, shifted by one level.
    std::string tolerance;
    // null: each row's dtypes chose it (assert_close's defaults); the rows
    // say what applied.
    auto setting = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    for (char c : json{{"rtol", setting(report.tolerance.rtol)}, {"atol", setting(report.tolerance.atol)}}.dump(2)) {
        tolerance += c;
        if (c == '\n') tolerance += "  ";
    }
    out += "{\n  \"tolerance\": " + tolerance + ",\n";
    out += "  \"mode\": " + json(report.mode).dump() + ",\n  \"nodes\": [";
    JsonRowWriter w(out);
    for (size_t i = 0; i < report.outputs.size(); ++i) {
        const OutputError& row = report.outputs[i];
        const ErrorMetrics& m = row.metrics;
        out += i ? ",\n" : "\n";
        w.open();
        w.string("node", row.nodeName);
        w.string("output", row.output);
        w.integer("index", row.index);
        w.string("op_type", row.opType);
        for (const auto& metric : kErrorMetrics) w.real(metric.key, m.*(metric.field));
        w.boolean("ok", !row.failing);
        w.boolean("exact", m.exact);
        w.integer("numel", m.numel);
        w.integer("mismatches", m.mismatches);
        w.integer("nan_actual", m.nanActual);
        w.integer("inf_actual", m.infActual);
        w.integer("nan_reference", m.nanReference);
        w.integer("inf_reference", m.infReference);
        w.boolean("dtype_differs", row.dtypeDiffers);
        w.real("rtol", m.tolerance.rtol);
        w.real("atol", m.tolerance.atol);
        if (!m.problem.empty()) w.string("problem", m.problem);
        if (!row.referenceNote.empty()) w.string("reference_note", row.referenceNote);
        w.close();
    }
    out += report.outputs.empty() ? "],\n" : "\n  ],\n";
    out += "  \"first_failing\": " +
           (report.firstFailing ? json(report.outputs[*report.firstFailing].nodeName).dump() : std::string("null")) +
           ",\n";
    out += "  \"not_in_reference\": " + std::to_string(report.notInReference) + ",\n";
    out += "  \"not_computed\": " + std::to_string(report.notComputed) + "\n}\n";
    return out;
}

std::string errorReportCsv(const ErrorReport& report) {
    std::string out = "node,output,index,op_type,";
    for (const auto& metric : kErrorMetrics) out += std::string(metric.key) + ",";
    out +=
        "ok,exact,numel,mismatches,nan_actual,inf_actual,nan_reference,inf_reference,dtype_differs,problem,rtol,"
        "atol\n";
    for (const auto& row : report.outputs) {
        const ErrorMetrics& m = row.metrics;
        out += csvField(row.nodeName) + "," + csvField(row.output) + "," + std::to_string(row.index) + "," +
               csvField(row.opType) + ",";
        for (const auto& metric : kErrorMetrics) out += numberText(m.*(metric.field)) + ",";
        out += std::string(row.failing ? "false" : "true") + "," + (m.exact ? "true" : "false") + "," +
               std::to_string(m.numel) + "," + std::to_string(m.mismatches) + "," + std::to_string(m.nanActual) + "," +
               std::to_string(m.infActual) + "," + std::to_string(m.nanReference) + "," +
               std::to_string(m.infReference) + "," + (row.dtypeDiffers ? "true" : "false") + "," +
               csvField(m.problem) + "," + numberText(m.tolerance.rtol) + "," + numberText(m.tolerance.atol) + "\n";
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
