# The engine's front door (README.md, "Layout"): the window, the app, the AMQP endpoint, the
# administration API, scenario playback, the TLS certificates, the AMQP codecs and the remote
# client compile with only public include
# folders on their include path. Reads the build's compile_commands.json and fails, naming the
# source and the folder, when a source of one of those clients sees a private folder of a library
# it is not part of.
#   cmake -DCOMMANDS=<build>/compile_commands.json -DSOURCE_DIR=<source root> -P CheckPublicIncludes.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT EXISTS "${COMMANDS}")
  message(FATAL_ERROR "no compile database at ${COMMANDS}")
endif()
file(READ "${COMMANDS}" database)
string(JSON count LENGTH "${database}")

# The private folders: the engine's root (its store, SQL language and broker parts), and the
# roots of the endpoint, of the administration API, of scenario playback and of the TLS
# certificates, each private to its own library.
set(private_engine "${SOURCE_DIR}/engine")
set(private_amqp "${SOURCE_DIR}/engine/amqp")
set(private_scenario "${SOURCE_DIR}/engine/scenario")
set(private_admin "${SOURCE_DIR}/engine/admin")
set(private_tls "${SOURCE_DIR}/engine/tls")
set(private_amqpcodec "${SOURCE_DIR}/engine/amqpcodec")
set(private_remote "${SOURCE_DIR}/engine/remote")

set(found 0)
set(checked 0)
math(EXPR last "${count} - 1")
foreach(index RANGE ${last})
  string(JSON file GET "${database}" ${index} file)
  file(RELATIVE_PATH relative "${SOURCE_DIR}" "${file}")
  # The clients and what each may see privately: its own folder only.
  if(relative MATCHES "^(ui|app)/")
    set(own "")
  elseif(relative MATCHES "^engine/amqp/")
    set(own "${private_amqp}")
  elseif(relative MATCHES "^engine/scenario/")
    set(own "${private_scenario}")
  elseif(relative MATCHES "^engine/admin/")
    set(own "${private_admin}")
  elseif(relative MATCHES "^engine/tls/")
    set(own "${private_tls}")
  elseif(relative MATCHES "^engine/amqpcodec/")
    set(own "${private_amqpcodec}")
  elseif(relative MATCHES "^engine/remote/")
    set(own "${private_remote}")
  else()
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  string(JSON command GET "${database}" ${index} command)
  string(REGEX MATCHALL "(-I|-isystem )[^ ]+" options "${command}")
  foreach(option IN LISTS options)
    string(REGEX REPLACE "^(-I|-isystem )" "" folder "${option}")
    cmake_path(NORMAL_PATH folder)
    string(REGEX REPLACE "/$" "" folder "${folder}")
    foreach(private IN ITEMS "${private_engine}" "${private_amqp}" "${private_scenario}"
                             "${private_admin}" "${private_tls}" "${private_amqpcodec}"
                             "${private_remote}")
      if(folder STREQUAL private AND NOT folder STREQUAL own)
        file(RELATIVE_PATH shown "${SOURCE_DIR}" "${folder}")
        message("${relative} sees the private folder ${shown}/")
        math(EXPR found "${found} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()

if(found GREATER 0)
  message(FATAL_ERROR "${found} private include folder(s) on a client's include path")
endif()
if(checked EQUAL 0)
  message(FATAL_ERROR "no source of ui/, app/, engine/amqp/, engine/admin/, engine/scenario/ or "
    "engine/tls/ in ${COMMANDS}")
endif()
message("${checked} sources of ui/, app/, the endpoint, the administration API, scenario playback "
  "and TLS: public folders only")
