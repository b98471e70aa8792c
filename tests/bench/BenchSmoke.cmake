# bench_engine_smoke: runs `engine_bench --quick` and checks only that it exits 0 and printed a
# "measured" line for every figure. It asserts nothing about speed: timings on a shared machine
# are not test results.
#   cmake -DBENCH=<path to engine_bench> -P BenchSmoke.cmake
execute_process(COMMAND "${BENCH}" --quick
  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
message("${output}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "engine_bench --quick exited with ${result}: ${errors}")
endif()
foreach(figure 1a 1b 1c 2a 2b 2c 3a 3b 3c 3d 4 5 6 7 8a 8b 8c 9a 9b)
  string(FIND "${output}" "measured ${figure} " found)
  if(found EQUAL -1)
    message(FATAL_ERROR "engine_bench --quick did not print figure ${figure}")
  endif()
endforeach()
