# bench_remote_smoke: runs `remote_bench --quick` in a home of its own (secret-service.sh without)
# and checks only that it exits 0 and printed every figure with a value, the SDK's included (not
# skipped). It asserts nothing about speed: timings on a shared machine are not test results.
#   cmake -DBENCH=<remote_bench> -DHOME_SCRIPT=<secret-service.sh> -P RemoteBenchSmoke.cmake
execute_process(COMMAND bash "${HOME_SCRIPT}" without "${BENCH}" --quick
  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
message("${output}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "remote_bench --quick exited with ${result}: ${errors}")
endif()
foreach(figure
    "peek N into the list, select to N rows"
    "JS SDK peekMessages, before the window"
    "JS SDK peekMessages, after the window"
    "AmqpClient::peek alone, pages of 200"
    "select the queue -> first page painted"
    "Save in Connect -> tree of all entities with counts"
    "GUI thread: longest stretch between 1 ms ticks")
  string(REGEX MATCH "${figure}[^\n]* [0-9]+\\.[0-9] ms" found "${output}")
  if(NOT found)
    message(FATAL_ERROR "remote_bench --quick printed no value for \"${figure}\"")
  endif()
endforeach()
