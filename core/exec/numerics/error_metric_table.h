#pragma once
// The error metrics of a node output against its reference, in one table:
// their key in files ("max_abs": the JSON and CSV reports, --node-data,
// --overlay), their title and meaning (the Differences dock's columns and
// tooltips, the overlay legend), which way is better, the ErrorMetrics field
// that holds them and the overlay that colours the graph by them. Everything
// that lists the metrics reads this table, so a metric added here appears in
// the report, the overlay, the dock and both writers at once. Torch-free.
#include <array>
#include <optional>
#include <string_view>

#include "core/exec/numerics/error_metrics.h"
#include "core/exec/numerics/overlay_kind.h"

namespace irscope::exec {

enum class NodeMetric { MaxAbs, MaxRel, MeanAbs, Mse, Cosine, SqnrDb, TimeMs };

struct ErrorMetricInfo {
    NodeMetric metric;
    const char* key;      // "max_abs"
    const char* option;   // the window's --overlay name: "diff", "maxrel", ...
    const char* title;    // "Max abs"
    const char* meaning;  // "max |run − reference|"
    double ErrorMetrics::*field;
    bool higherIsBetter;  // cosine and SQNR: closer to the reference when higher
    OverlayKind overlay;
};

// In the order the report, the dock and the writers list them.
inline constexpr std::array<ErrorMetricInfo, 6> kErrorMetrics{{
    {NodeMetric::MaxAbs, "max_abs", "diff", "Max abs", "max |run − reference|", &ErrorMetrics::maxAbs, false,
     OverlayKind::Difference},
    {NodeMetric::MaxRel, "max_rel", "maxrel", "Max rel", "max |run − reference| / |reference|", &ErrorMetrics::maxRel,
     false, OverlayKind::ErrorMaxRel},
    {NodeMetric::MeanAbs, "mean_abs", "meanabs", "Mean abs", "mean |run − reference|", &ErrorMetrics::meanAbs, false,
     OverlayKind::ErrorMeanAbs},
    {NodeMetric::Mse, "mse", "mse", "MSE", "mean (run − reference)²", &ErrorMetrics::mse, false, OverlayKind::ErrorMse},
    {NodeMetric::Cosine, "cosine", "cosine", "Cosine", "cosine similarity of run and reference (1: same direction)",
     &ErrorMetrics::cosine, true, OverlayKind::ErrorCosine},
    {NodeMetric::SqnrDb, "sqnr_db", "sqnr", "SQNR (dB)", "10·log10(‖reference‖² / ‖reference − run‖²); +inf when equal",
     &ErrorMetrics::sqnrDb, true, OverlayKind::ErrorSqnr},
}};

// The row of a metric (none for TimeMs, which is not an error metric).
constexpr const ErrorMetricInfo* errorMetricInfo(NodeMetric metric) {
    for (const auto& m : kErrorMetrics)
        if (m.metric == metric) return &m;
    return nullptr;
}

// The row whose overlay is `kind` (none for the overlays that are not errors).
constexpr const ErrorMetricInfo* errorMetricOfOverlay(OverlayKind kind) {
    for (const auto& m : kErrorMetrics)
        if (m.overlay == kind) return &m;
    return nullptr;
}

}  // namespace irscope::exec
