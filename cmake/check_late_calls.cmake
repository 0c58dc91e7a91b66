# The GUI module's calls into a module it loads after its first frame
# (app/CMakeLists.txt: the engine, the charts), checked after both are linked:
#   cmake -DGUI=libirscope_gui.so -DLATE=libirscope_engine.so -DWHAT=engine
#         -DALLOWED=<regex over demangled names> -DWHY="<what the rule is>"
#         -DSTAMP=file [-DNM=nm -DREADELF=readelf -DCXXFILT=c++filt] -P check_late_calls.cmake
# The window draws before such a module is loaded, so what it uses of it must
# be resolvable late and must not be reached early:
#   - only the names ALLOWED matches: for the engine, the Debugger's members
#     (and extractRepro, which takes a Debugger): no Debugger exists before
#     the engine is in, so none is called before (anything else the window
#     needs of core/exec belongs in the light part irscope_exec_terms,
#     core/CMakeLists.txt); for the charts, widgets/charts/charts.h, which
#     panels call only once the charts are loaded;
#   - each only through the PLT (a JUMP_SLOT relocation, bound at the first
#     call): an address taken, a vtable or a type_info would be bound when the
#     module loads, and the module would not load.
# Fails listing every offending symbol; writes STAMP when all is well.
foreach(tool NM READELF CXXFILT)
  if(NOT ${tool})
    string(TOLOWER ${tool} name)
    if(name STREQUAL "cxxfilt")
      set(name c++filt)
    endif()
    find_program(${tool} ${name} REQUIRED)
  endif()
endforeach()

function(dynamic_symbols file which out)
  execute_process(COMMAND ${NM} -D ${which} --format=posix ${file} OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${file}")
  endif()
  string(REGEX REPLACE "([^ \n]+) [^\n]*\n" "\\1;" names "${text}")
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

dynamic_symbols(${LATE} --defined-only late_defines)
dynamic_symbols(${GUI} --undefined-only gui_needs)
set(calls "")
foreach(symbol ${gui_needs})
  string(REGEX REPLACE "@.*" "" symbol "${symbol}")
  if(symbol IN_LIST late_defines)
    list(APPEND calls ${symbol})
  endif()
endforeach()

set(problems "")
# Each call, readable: one c++filt for all of them (with none it would read stdin).
set(readable_calls "")
if(calls)
  execute_process(COMMAND ${CXXFILT} ${calls} OUTPUT_VARIABLE readable_calls OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
string(REPLACE "\n" ";" readable_calls "${readable_calls}")
foreach(readable ${readable_calls})
  if(NOT readable MATCHES "${ALLOWED}")
    string(APPEND problems "\n  ${readable}: ${WHY}")
  endif()
endforeach()
# Each relocation against one of them: "OFFSET INFO R_X86_64_JUMP_SLOT VALUE SYMBOL + 0".
execute_process(COMMAND ${READELF} -rW ${GUI} OUTPUT_VARIABLE relocations)
string(REPLACE "\n" ";" relocation_lines "${relocations}")
foreach(line ${relocation_lines})
  if(line MATCHES "(R_[A-Z0-9_]+) +[0-9a-f]+ +([A-Za-z0-9_.]+)")
    set(kind ${CMAKE_MATCH_1})
    set(symbol ${CMAKE_MATCH_2})
    if(symbol IN_LIST calls AND NOT kind MATCHES "JUMP_SLOT$")
      string(APPEND problems "\n  ${symbol}: a ${kind} relocation, bound when the module loads (only calls may reach the ${WHAT})")
    endif()
  endif()
endforeach()
list(LENGTH calls count)
if(count EQUAL 0)
  string(APPEND problems "\n  no call into the ${WHAT} found: the check reads nothing (is the GUI module still split from it?)")
endif()
if(problems)
  message(FATAL_ERROR "${GUI} reaches into ${LATE}:${problems}")
endif()
file(WRITE ${STAMP} "${count} calls into the ${WHAT}, all allowed, all through the PLT\n")
