# Writes irscope(1) from the program's own help texts, so the man page says
# what `--help` says: `irscope --help`, `irscope COMMAND --help` for every
# command it lists, and `irscope --help-gui`.
#   cmake -DIRSCOPE=path/to/irscope -DVERSION=0.1.0 -DOUT=irscope.1 -P make_manpage.cmake
foreach(var IRSCOPE VERSION OUT)
  if(NOT ${var})
    message(FATAL_ERROR "make_manpage.cmake: pass -D${var}=...")
  endif()
endforeach()

function(help_of out)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${IRSCOPE} ${ARGN}
    OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "irscope ${ARGN} failed (${rc}): ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Text as troff shows it verbatim: backslashes escaped, no line read as a request.
function(as_troff out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "\n." "\n\\&." text "${text}")
  string(REPLACE "\n'" "\n\\&'" text "${text}")
  string(REGEX REPLACE "^([.'])" "\\\\&\\1" text "${text}")
  set(${out} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

help_of(top --help)
help_of(gui --help-gui)
string(REGEX MATCH "Commands:\n(.*)\n\n" commands_block "${top}")
string(REGEX MATCHALL "\n  [a-z][a-z-]*" names "\n${CMAKE_MATCH_1}")

string(TIMESTAMP date "%Y-%m-%d" UTC)  # SOURCE_DATE_EPOCH, when set, makes it reproducible
set(page ".TH IRSCOPE 1 \"${date}\" \"irscope ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\nirscope \\- see, run and debug torch_ir graphs of PyTorch models\n")
string(APPEND page ".SH SYNOPSIS\n.B irscope\n[\\fIIR.json\\fR [\\fIB.json\\fR]] [\\fIwindow options\\fR]\n.br\n")
string(APPEND page ".B irscope\n\\fICOMMAND\\fR [\\fIoptions\\fR]\n")
string(APPEND page ".SH DESCRIPTION\nWithout a command irscope opens its window on the IR given (with a second IR, it compares the two).\nWith a command it runs headless, for scripts and CI.\n")
as_troff(t "${top}")
string(APPEND page "${t}")
string(APPEND page ".SH COMMANDS\n")
foreach(n ${names})
  string(STRIP "${n}" name)
  help_of(usage ${name} --help)
  string(APPEND page ".SS irscope ${name}\n")
  as_troff(t "${usage}")
  string(APPEND page "${t}")
endforeach()
string(APPEND page ".SH WINDOW OPTIONS\n")
as_troff(t "${gui}")
string(APPEND page "${t}")
string(APPEND page ".SH FILES\n.TP\n.I /usr/share/irscope/examples/\nExample IRs with their weights, inputs and expected outputs.\n")
string(APPEND page ".SH SEE ALSO\nThe README in /usr/share/doc/irscope and the project's documentation.\n")
file(WRITE ${OUT} "${page}")
