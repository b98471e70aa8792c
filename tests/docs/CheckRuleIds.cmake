# Every rule id that a test name or a comment cites (E3, T2, L12, S1, ...) has its own section in
# the rules document, so that a reader who meets an id can look it up.
#
#   cmake -DSOURCE_DIRS="dir|dir|file" -DDOC=resources/docs/service-bus-rules.md -P CheckRuleIds.cmake
#
# SOURCE_DIRS holds folders (their sources, scripts and documents are read) and single files.
# An id is one of the rule letters and one or two digits, standing alone between characters that
# are not letters or digits (`ttl_T2_scheduled`, `(L4-L10)`, `S1-S6`). Fails naming each id that
# the document lacks and one file that cites it.
cmake_minimum_required(VERSION 3.25)

if(NOT DEFINED SOURCE_DIRS OR NOT DEFINED DOC)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIRS=... -DDOC=... -P CheckRuleIds.cmake")
endif()
if(NOT EXISTS "${DOC}")
  message(FATAL_ERROR "the rules document ${DOC} is missing")
endif()

# Folders are separated by '|' (a ';' would not survive add_test's command line).
string(REPLACE "|" ";" SOURCE_DIRS "${SOURCE_DIRS}")
set(files)
foreach(dir IN LISTS SOURCE_DIRS)
  if(NOT IS_DIRECTORY "${dir}")
    list(APPEND files "${dir}")
    continue()
  endif()
  file(GLOB_RECURSE found LIST_DIRECTORIES false
    "${dir}/*.cpp" "${dir}/*.h" "${dir}/*.mjs" "${dir}/*.js" "${dir}/*.sh" "${dir}/*.cmake"
    "${dir}/CMakeLists.txt" "${dir}/*.md")
  list(APPEND files ${found})
endforeach()

set(cited)
foreach(file IN LISTS files)
  # Only lines with a candidate are read further: cheap on a large tree.
  file(STRINGS "${file}" lines REGEX "[ETLARSDN][0-9]")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "[^A-Za-z0-9]+" ";" tokens "${line}")
    foreach(token IN LISTS tokens)
      if(token MATCHES "^[ETLARSDN][0-9][0-9]?$")
        if(NOT token IN_LIST cited)
          list(APPEND cited ${token})
          set(where_${token} "${file}")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()

file(READ "${DOC}" doc)
set(missing)
foreach(id IN LISTS cited)
  # Each rule is a section of its own: "### T3. The entity's default time-to-live".
  string(FIND "${doc}" "\n### ${id}. " at)
  if(at EQUAL -1)
    list(APPEND missing "${id} (cited in ${where_${id}})")
  endif()
endforeach()

list(LENGTH cited count)
if(missing)
  list(JOIN missing "\n  " text)
  message(FATAL_ERROR "rule ids cited but not in ${DOC}:\n  ${text}")
endif()
message(STATUS "${count} rule ids cited, each with its section in ${DOC}")
