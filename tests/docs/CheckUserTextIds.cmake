# What the window and the wire show carries no rule id and no issue number: a string literal in
# the given folders may not hold a parenthesised rule id ("(L12)", "(S1-S6)", "(see T3)") nor
# an issue number. Comments keep their ids; they are for readers of the code, and the rules document
# explains them.
#
#   cmake -DSOURCE_DIRS="ui|engine|app" -P CheckUserTextIds.cmake
#
# A literal is read on one line ("...", with \" inside); lines that are comments are skipped.
# Fails naming each file and line.
cmake_minimum_required(VERSION 3.25)

if(NOT DEFINED SOURCE_DIRS)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIRS=... -P CheckUserTextIds.cmake")
endif()

# Folders are separated by '|' (a ';' would not survive add_test's command line).
string(REPLACE "|" ";" SOURCE_DIRS "${SOURCE_DIRS}")
set(files)
foreach(dir IN LISTS SOURCE_DIRS)
  file(GLOB_RECURSE found LIST_DIRECTORIES false "${dir}/*.cpp" "${dir}/*.h")
  list(APPEND files ${found})
endforeach()
list(SORT files)

# True in `result` when `text` (one literal) holds a parenthesised rule id or an issue number.
function(leaks_an_id text result)
  set(${result} FALSE PARENT_SCOPE)
  if(text MATCHES "[Ii]ssues? ?#?[0-9]")
    set(${result} TRUE PARENT_SCOPE)
    return()
  endif()
  string(REGEX MATCHALL "\\([^()]*\\)" groups "${text}")
  foreach(group IN LISTS groups)
    # '%' stays in its token: "%L1" is a Qt argument, not rule L1.
    string(REGEX REPLACE "[^A-Za-z0-9%]+" ";" tokens "${group}")
    foreach(token IN LISTS tokens)
      if(token MATCHES "^[ETLARSDN][0-9][0-9]?$")
        set(${result} TRUE PARENT_SCOPE)
        return()
      endif()
    endforeach()
  endforeach()
endfunction()

set(found_lines)
foreach(file IN LISTS files)
  # Only files with a quote are read line by line.
  file(STRINGS "${file}" lines REGEX "\"")
  if(NOT lines)
    continue()
  endif()
  # file(STRINGS) drops line numbers; read the whole file to number the lines. ';', '[' and ']'
  # would split or join CMake list items, so they are stood in for while the lines are read.
  file(READ "${file}" content)
  string(REPLACE ";" "<semicolon>" content "${content}")
  string(REPLACE "[" "<open>" content "${content}")
  string(REPLACE "]" "<close>" content "${content}")
  string(REPLACE "\n" ";" all_lines "${content}")
  set(number 0)
  foreach(line IN LISTS all_lines)
    math(EXPR number "${number} + 1")
    if(NOT line MATCHES "\"" OR line MATCHES "^[ \t]*(//|\\*)")
      continue()
    endif()
    if(NOT line MATCHES "[ETLARSDN][0-9]|[Ii]ssue")
      continue()
    endif()
    string(REGEX MATCHALL "\"([^\"\\\\]|\\\\.)*\"" literals "${line}")
    foreach(literal IN LISTS literals)
      leaks_an_id("${literal}" leaks)
      if(leaks)
        string(STRIP "${line}" shown)
        string(REPLACE "<semicolon>" "\\;" shown "${shown}")
        string(REPLACE "<open>" "[" shown "${shown}")
        string(REPLACE "<close>" "]" shown "${shown}")
        list(APPEND found_lines "${file}:${number}: ${shown}")
        break()
      endif()
    endforeach()
  endforeach()
endforeach()

if(found_lines)
  list(JOIN found_lines "\n  " text)
  message(FATAL_ERROR "user-facing text with a rule id or an issue number:\n  ${text}")
endif()
list(LENGTH files count)
message(STATUS "${count} files: no rule id or issue number in a string literal")
