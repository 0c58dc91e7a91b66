# The layering the build promises (core/CMakeLists.txt, app/CMakeLists.txt),
# checked over every source: cmake -DROOT=<repo> -P check_layering.cmake
#   - torch-free parts never include a torch header (ATen, c10, torch, caffe2);
#   - core never includes Qt;
#   - widgets and the light app folders never include core/io or core/exec
#     headers other than the torch-free facade ones and core/io/catalog.
# Exits non-zero listing every offending file:line.
if(NOT ROOT)
  message(FATAL_ERROR "pass -DROOT=<repository root>")
endif()

set(problems "")
function(scan folders regex why)
  foreach(folder ${folders})
    file(GLOB_RECURSE files ${ROOT}/${folder}/*.cpp ${ROOT}/${folder}/*.h)
    foreach(f ${files})
      file(STRINGS ${f} lines REGEX "${regex}")
      foreach(line ${lines})
        file(RELATIVE_PATH rel ${ROOT} ${f})
        set(problems "${problems}\n  ${rel}: ${line}  (${why})")
      endforeach()
    endforeach()
  endforeach()
  set(problems "${problems}" PARENT_SCOPE)
endfunction()

set(torch_free core/ir core/layout core/modules core/diff core/export core/io/catalog widgets app/launcher app/cli app/gui)
scan("${torch_free}" "^[ \t]*#[ \t]*include[ \t]*[<\"](ATen|c10|torch|caffe2)/" "torch header in a torch-free part")
scan("core" "^[ \t]*#[ \t]*include[ \t]*<Q[A-Za-z]*>" "Qt in core")
# The torch-free headers of core/exec and core/io that the GUI may use: the
# debugger facade and the plain types its answers are made of.
set(facade "debugger/(debugger|node_overlays|run_status|watchpoints)|engine/(exec_types|session)|values/(value_rows|value_text|state_dict_match)|numerics/(probe_types|verify|tolerance|local_verdict|error_report|error_metrics|metric_thresholds|node_metric)|reference/(reference_diff|reference_choice)")
scan("widgets;app/launcher;app/cli;app/gui" "^[ \t]*#[ \t]*include[ \t]*\"core/(io|exec)/" "core/io or core/exec from the GUI or launcher")
# ...the ones above name the facade: drop those lines again.
string(REGEX REPLACE "\n  [^\n]*\"core/exec/(${facade})\\.h\"[^\n]*" "" problems "${problems}")
# ...and core/io/catalog, the torch-free half of core/io (scanned above).
string(REGEX REPLACE "\n  [^\n]*\"core/io/catalog/[^\n]*" "" problems "${problems}")

if(problems)
  message(FATAL_ERROR "layering broken:${problems}")
endif()
message(STATUS "layering ok")
