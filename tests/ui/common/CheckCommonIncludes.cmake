# Shared code never includes a feature (ui/README.md): fails, naming the file and the include,
# when a file under <ui>/common includes a header of another folder of <ui>.
#   cmake -DUI_DIR=<path to ui> -P CheckCommonIncludes.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT IS_DIRECTORY "${UI_DIR}/common")
  message(FATAL_ERROR "UI_DIR=${UI_DIR} has no common/ folder")
endif()

# The feature folders: every folder of ui/ but common/.
file(GLOB entries RELATIVE "${UI_DIR}" "${UI_DIR}/*")
set(features "")
foreach(entry IN LISTS entries)
  if(IS_DIRECTORY "${UI_DIR}/${entry}" AND NOT entry STREQUAL "common")
    list(APPEND features "${entry}")
  endif()
endforeach()

file(GLOB_RECURSE sources RELATIVE "${UI_DIR}" "${UI_DIR}/common/*.h" "${UI_DIR}/common/*.cpp")
list(SORT sources)
set(found 0)
foreach(source IN LISTS sources)
  file(STRINGS "${UI_DIR}/${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">].*" "\\1" header "${line}")
    string(REGEX REPLACE "/.*" "" folder "${header}")
    if(header MATCHES "\\.\\./" OR folder IN_LIST features)
      message("ui/${source} includes ${header}: common/ may include only common/, the engine "
              "and Qt")
      math(EXPR found "${found} + 1")
    endif()
  endforeach()
endforeach()

if(found GREATER 0)
  message(FATAL_ERROR "${found} include(s) from ui/common/ into a feature folder")
endif()
list(LENGTH sources count)
list(JOIN features ", " names)
message("ui/common/: ${count} files, none includes a feature folder (${names})")
