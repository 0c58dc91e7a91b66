# One precompiled header for every target that sees libtorch: core/io,
# core/exec, app/commands, the io and exec suites and the benches that call
# at::. Parsing <ATen/ATen.h> alone takes ~12 s (gcc 12, -O3) of each such
# file's 25-35 s, and 54 of the 65 also include nlohmann/json.hpp; with both
# compiled once per build directory, each file saves ~10 s. The targets share
# the precompiled header of irscope_torch_pch (REUSE_FROM), built with the
# same flags they use (irscope_warnings carries the sanitizer flags, the
# torch libraries their defines). -Winvalid-pch comes with it: under -Werror
# a header that no longer matches stops the build instead of silently
# costing the time again.
# -DIRSCOPE_TORCH_PCH=OFF builds without it, e.g. to check that each file
# includes what it uses.
option(IRSCOPE_TORCH_PCH "Precompile ATen.h and nlohmann/json.hpp once for the targets that use libtorch" ON)

if(IRSCOPE_TORCH_PCH)
  add_library(irscope_torch_pch STATIC ${CMAKE_CURRENT_LIST_DIR}/torch_pch.cpp)
  target_link_libraries(irscope_torch_pch PRIVATE irscope_warnings nlohmann_json::nlohmann_json ${TORCH_LIBRARIES})
  target_precompile_headers(irscope_torch_pch PRIVATE <ATen/ATen.h> <nlohmann/json.hpp>)
endif()

# Gives `target` the shared precompiled header (nothing when it is off).
# gcc 12 with a precompiled header reports -Warray-bounds inside libstdc++'s
# inlined std::string copies that the same code compiled without it does not
# (`std::string("...") + c + "..."` chains, at -O1 and up: false positives of
# a system header's code, seen in the TSan and Release builds). Such a
# report stays a warning there rather than failing a -Werror build on a
# compiler bug; the ASan build still catches a real out-of-bounds access.
function(irscope_use_torch_pch target)
  if(IRSCOPE_TORCH_PCH)
    target_precompile_headers(${target} REUSE_FROM irscope_torch_pch)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-error=array-bounds)
    endif()
  endif()
endfunction()
