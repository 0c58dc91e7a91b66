// irscope's layering (see core/CMakeLists.txt): this target must not include
// torch headers. Only core/io, core/exec, app/commands and their tests may;
// reach values through core/exec/debugger/debugger.h and the other torch-free headers.
#error "torch header <ATen/core/Tensor.h> included from a torch-free part of irscope"
