#pragma once
// An ErrorReport as a file for scripts and colleagues: JSON or CSV, chosen by
// the file's extension (`irscope run --report FILE.json|FILE.csv`).
//
// JSON: {"tolerance": {"rtol", "atol"} (the user's, null where each row's
// dtypes chose it), "mode": "cumulative"|"local", "nodes": [{"node",
// "output", "index", "op_type", "max_abs", "max_rel", "mean_abs", "mse",
// "cosine", "sqnr_db", "ok", "exact", "numel", "mismatches", "nan_actual",
// "inf_actual", "nan_reference", "inf_reference", "dtype_differs", "rtol",
// "atol" (the tolerance that judged "ok")[, "problem"][, "reference_note"]}, ...],
// "first_failing": node name | null, "not_in_reference", "not_computed"}.
// JSON has no infinities or NaN: those metrics are the strings "inf",
// "-inf" and "nan" (Python: float("inf") reads them back). CSV has one row per
// node output, the same columns, and the same spellings.
#include <string>

#include "core/exec/numerics/error_report.h"

namespace irscope::exec {

std::string errorReportJson(const ErrorReport& report);
std::string errorReportCsv(const ErrorReport& report);

// Writes by extension (.json or .csv, any case) through a temporary file
// renamed into place; throws std::runtime_error naming the path and the reason.
void writeErrorReport(const ErrorReport& report, const std::string& path);

}  // namespace irscope::exec
