#pragma once
// What the graph's nodes can be coloured by. Its own header, below the
// debugger's floor, so that the error metrics' table (error_metric_table.h)
// can name each metric's overlay.
namespace irscope::exec {

// Difference and the Error* kinds are the reference check's metrics (max
// abs, max rel, mean abs, MSE, cosine, SQNR per node: the worst over its
// outputs); Imported is node data loaded from a file.
enum class OverlayKind {
    None,
    Time,
    MaxAbs,
    NanInf,
    Difference,
    ErrorMaxRel,
    ErrorMeanAbs,
    ErrorMse,
    ErrorCosine,
    ErrorSqnr,
    Imported
};

}  // namespace irscope::exec
