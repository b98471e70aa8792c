# Every C++ source and header of the house is as .clang-format lays it out (`make format` applies
# it), so that a diff shows what changed and not how someone's editor wraps lines. Fails naming each
# file that differs and the first place it does.
#   cmake -DCLANG_FORMAT=<clang-format> -DSOURCE_DIR=<checkout> -P CheckFormat.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT CLANG_FORMAT OR NOT EXISTS "${CLANG_FORMAT}")
  message(FATAL_ERROR "clang-format was not found: the format check needs the Debian package "
    "clang-format (`make deps` installs it)")
endif()
set(sources "")
foreach(folder app engine ui tests)
  file(GLOB_RECURSE found "${SOURCE_DIR}/${folder}/*.cpp" "${SOURCE_DIR}/${folder}/*.h")
  list(APPEND sources ${found})
endforeach()
list(LENGTH sources count)
if(count EQUAL 0)
  message(FATAL_ERROR "no sources under ${SOURCE_DIR}")
endif()
set(bad 0)
foreach(source IN LISTS sources)
  execute_process(COMMAND "${CLANG_FORMAT}" --dry-run -Werror "${source}"
    WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE result ERROR_VARIABLE diagnostics)
  if(NOT result EQUAL 0)
    math(EXPR bad "${bad} + 1")
    file(RELATIVE_PATH shown "${SOURCE_DIR}" "${source}")
    string(REGEX MATCH ":[0-9]+:[0-9]+:" where "${diagnostics}")
    message(STATUS "${shown}${where} is not formatted (make format)")
  endif()
endforeach()
if(bad GREATER 0)
  message(FATAL_ERROR "${bad} of ${count} file(s) are not formatted as .clang-format says")
endif()
message(STATUS "${count} files formatted as .clang-format says")
