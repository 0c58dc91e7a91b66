# The layering the build promises (core/CMakeLists.txt, app/CMakeLists.txt),
# checked over every source: cmake -DROOT=<repo> -P check_layering.cmake
#   - torch-free parts never include a torch header (ATen, c10, torch, caffe2);
#   - core never includes Qt;
#   - widgets and the light app folders never include core/io or core/exec
#     headers other than the torch-free facade ones and core/io/catalog;
#   - no include cycle between folders of widgets/, however long (a panel's
#     folder may use session/ and common/, never the other way round);
#   - the window (widgets/main_window) names no panel: panels reach it
#     through the registry (widgets/common/panel_registry.h);
#   - each part of core includes only the parts below it (the table below:
#     what each part may use, the floors of docs/CONTRIBUTING.md), and each
#     floor of core/exec only the floors of core/exec below it;
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
set(facade "debugger/(debugger|debugger_values|debugger_checks|debugger_frames|debugger_tensors|debugger_overrides|node_overlays|run_status|subgraph_frames|watchpoints|watch_condition)|engine/(exec_types|session)|values/(value_rows|value_text|state_dict_match)|numerics/(probe_types|verify|tolerance|local_verdict|error_report|error_metrics|error_metric_table|overlay_kind|metric_thresholds|node_metric)|reference/(reference_diff|reference_choice|quantization_compare|program_pairing)|repro/repro_extract")
scan("widgets;app/launcher;app/cli;app/gui" "^[ \t]*#[ \t]*include[ \t]*\"core/(io|exec)/" "core/io or core/exec from the GUI or launcher")
# ...the ones above name the facade: drop those lines again.
string(REGEX REPLACE "\n  [^\n]*\"core/exec/(${facade})\\.h\"[^\n]*" "" problems "${problems}")
# ...and core/io/catalog, the torch-free half of core/io (scanned above).
string(REGEX REPLACE "\n  [^\n]*\"core/io/catalog/[^\n]*" "" problems "${problems}")

scan("widgets/main_window" "^[ \t]*#[ \t]*include[ \t]*\"widgets/(panels|debugger|compare)/"
     "the window names no panel: each registers itself (widgets/common/panel_registry.h)")

# The parts of core and what each may include, bottom up. A part is a folder
# of core/ (io/catalog apart from the rest of io).
set(core_parts ir layout modules diff export io/catalog io exec)
set(allowed_ir "ir")
set(allowed_layout "ir|layout")
set(allowed_modules "ir|layout|modules")
set(allowed_diff "ir|modules|diff")
set(allowed_export "ir|layout|modules|diff|export")
set(allowed_io/catalog "ir|io/catalog")
set(allowed_io "ir|io")
set(allowed_exec "ir|modules|export|io|exec")
# Every include of `base`/ in the files of `base`/PART must name a part in
# allowed_PART (a regex alternation, read from the caller's scope as
# ${prefix}PART). `exclude`: a regex of files left out (a part's own subpart).
function(check_parts base parts prefix exclude)
  foreach(part ${parts})
    file(GLOB_RECURSE part_files ${ROOT}/${base}/${part}/*.cpp ${ROOT}/${base}/${part}/*.h)
    if(exclude AND part STREQUAL "io")
      list(FILTER part_files EXCLUDE REGEX "${exclude}")
    endif()
    set(allowed "${${prefix}${part}}")
    foreach(f ${part_files})
      file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"${base}/")
      foreach(line ${lines})
        if(NOT line MATCHES "\"${base}/(${allowed})/")
          file(RELATIVE_PATH rel ${ROOT} ${f})
          set(problems "${problems}\n  ${rel}: ${line}  (${base}/${part} may include only ${base}/{${allowed}})")
        endif()
      endforeach()
    endforeach()
  endforeach()
  set(problems "${problems}" PARENT_SCOPE)
endfunction()
check_parts(core "${core_parts}" allowed_ "/core/io/catalog/")

# The floors of core/exec, bottom up, each a library (core/CMakeLists.txt):
# what each may include of core/exec. The engine and its 1.13 shims are one
# floor; the debugger sits on the value tables and the references; the repro
# tools on the debugger.
set(exec_floors engine compat numerics values reference debugger repro)
set(exec_allowed_engine "engine|compat")
set(exec_allowed_compat "engine|compat")
set(exec_allowed_numerics "engine|compat|numerics")
set(exec_allowed_values "engine|compat|numerics|values")
set(exec_allowed_reference "engine|compat|numerics|reference")
set(exec_allowed_debugger "engine|compat|numerics|values|reference|debugger")
set(exec_allowed_repro "engine|compat|numerics|values|reference|debugger|repro")
file(GLOB exec_dirs LIST_DIRECTORIES true ${ROOT}/core/exec/*)
foreach(d ${exec_dirs})
  get_filename_component(floor ${d} NAME)
  if(IS_DIRECTORY ${d} AND NOT floor IN_LIST exec_floors)
    set(problems "${problems}\n  core/exec/${floor}: a folder with no floor in the table of check_layering.cmake")
  endif()
endforeach()
check_parts(core/exec "${exec_floors}" exec_allowed_ "")

# Folders of widgets/ that include each other.
file(GLOB widget_dirs LIST_DIRECTORIES true ${ROOT}/widgets/*)
set(widget_folders "")
foreach(d ${widget_dirs})
  if(IS_DIRECTORY ${d})
    get_filename_component(name ${d} NAME)
    list(APPEND widget_folders ${name})
  endif()
endforeach()
foreach(a ${widget_folders})
  file(GLOB_RECURSE a_files ${ROOT}/widgets/${a}/*.cpp ${ROOT}/widgets/${a}/*.h)
  set(uses_${a} "")
  foreach(f ${a_files})
    file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"widgets/[a-z_]+/")
    foreach(line ${lines})
      string(REGEX REPLACE ".*\"widgets/([a-z_]+)/.*" "\\1" b "${line}")
      if(NOT b STREQUAL a)
        list(APPEND uses_${a} ${b})
      endif()
    endforeach()
  endforeach()
endforeach()
# Everything each folder reaches through includes (a handful of folders:
# iterate to the fixed point), then any two that reach each other: a cycle,
# however long.
foreach(a ${widget_folders})
  set(reach_${a} ${uses_${a}})
  if(reach_${a})
    list(REMOVE_DUPLICATES reach_${a})
  endif()
endforeach()
set(grew TRUE)
while(grew)
  set(grew FALSE)
  foreach(a ${widget_folders})
    foreach(b ${reach_${a}})
      foreach(c ${reach_${b}})
        list(FIND reach_${a} ${c} known)
        if(known EQUAL -1)
          list(APPEND reach_${a} ${c})
          set(grew TRUE)
        endif()
      endforeach()
    endforeach()
  endforeach()
endwhile()
foreach(a ${widget_folders})
  foreach(b ${reach_${a}})
    list(FIND reach_${b} ${a} back)
    if(NOT back EQUAL -1 AND a STRLESS b)
      set(problems "${problems}\n  widgets/${a} and widgets/${b} depend on each other (an include cycle)")
    endif()
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "layering broken:${problems}")
endif()
message(STATUS "layering ok")
