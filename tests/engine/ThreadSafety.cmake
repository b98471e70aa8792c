# The broker's locking rules, checked by clang: a -fsyntax-only pass with -Wthread-safety as an
# error over every engine source that uses the annotated mutex (engine/Mutex.h: GUARDED_BY
# state, REQUIRES functions, BrokerWrite/BrokerRead holding the mutex). Fails naming each file,
# line and rule broken. The flags are those the build compiles the engine with
# (compile_commands.json), so clang reads the same Qt headers with the same options.
#   cmake -DCLANGXX=<clang++> -DCOMPILE_COMMANDS=<build>/compile_commands.json
#         -DENGINE_DIR=<engine/> [-DSOURCES=<file;...>] -P ThreadSafety.cmake
# Without SOURCES: every engine source (not the endpoint's or scenario playback's, which are
# libraries of their own) that includes BrokerImpl.h, BrokerWrite.h or Mutex.h.
cmake_minimum_required(VERSION 3.25)
if(NOT CLANGXX OR NOT EXISTS "${CLANGXX}")
  message(FATAL_ERROR "clang++ was not found: the thread-safety check needs the Debian package "
    "clang (`make deps` installs it)")
endif()
if(NOT EXISTS "${COMPILE_COMMANDS}")
  message(FATAL_ERROR "${COMPILE_COMMANDS} is missing: configure with "
    "CMAKE_EXPORT_COMPILE_COMMANDS on (the top CMakeLists.txt sets it)")
endif()

# The flags of the engine's own sources: those of BrokerWrite.cpp (one target, one set of flags).
file(READ "${COMPILE_COMMANDS}" commands)
string(JSON count LENGTH "${commands}")
math(EXPR last "${count} - 1")
set(reference "${ENGINE_DIR}/BrokerWrite.cpp")
file(REAL_PATH "${reference}" reference)
set(command "")
foreach(i RANGE ${last})
  string(JSON file GET "${commands}" ${i} file)
  if(file STREQUAL reference)
    string(JSON command ERROR_VARIABLE missing GET "${commands}" ${i} command)
    break()
  endif()
endforeach()
if(command STREQUAL "")
  message(FATAL_ERROR "${COMPILE_COMMANDS} has no command for ${reference}")
endif()
separate_arguments(arguments UNIX_COMMAND "${command}")
set(flags "")
set(take_next FALSE)
foreach(argument IN LISTS arguments)
  if(take_next)
    list(APPEND flags "${argument}")
    set(take_next FALSE)
  elseif(argument MATCHES "^-(I|D|std=|fPIC$|fPIE$)")
    list(APPEND flags "${argument}")
  elseif(argument STREQUAL "-isystem" OR argument STREQUAL "-I")
    list(APPEND flags "${argument}")
    set(take_next TRUE)
  endif()
endforeach()

if(NOT SOURCES)
  file(GLOB_RECURSE candidates "${ENGINE_DIR}/*.cpp")
  list(SORT candidates)
  foreach(candidate IN LISTS candidates)
    if(candidate MATCHES "/engine/(amqp|scenario)/")
      continue()
    endif()
    file(STRINGS "${candidate}" uses REGEX "#[ \t]*include[ \t]*\"(BrokerImpl|BrokerWrite|Mutex)\\.h\"")
    if(uses)
      list(APPEND SOURCES "${candidate}")
    endif()
  endforeach()
endif()

set(failed 0)
foreach(source IN LISTS SOURCES)
  execute_process(
    COMMAND "${CLANGXX}" ${flags} -fsyntax-only -Wthread-safety -Werror=thread-safety
            -Wno-unknown-warning-option "${source}"
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message("${output}")
    math(EXPR failed "${failed} + 1")
  endif()
endforeach()
list(LENGTH SOURCES checked)
if(failed GREATER 0)
  message(FATAL_ERROR "${failed} of ${checked} file(s) break the locking rules (clang "
    "-Wthread-safety)")
endif()
message("clang -Wthread-safety: ${checked} engine files keep the locking rules")
