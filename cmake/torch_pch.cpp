// The one source of irscope_torch_pch (cmake/torch_pch.cmake): a target needs
// a file to compile its precompiled header with; this one adds no code.
