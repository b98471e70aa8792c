# One ctest run of a fuzz target (CMakeLists.txt here), with cmake -P:
#   MODE=run     copies the committed corpus CORPUS into SCRATCH (the source tree is never
#                written) and fuzzes from it for RUNS executions with a fixed seed;
#   MODE=replay  runs the target once over each committed corpus file;
#   MODE=explore (make fuzz) fuzzes for SECONDS from SCRATCH/corpus, which starts as a copy of
#                CORPUS and keeps what each run finds for the next.
# A crash, a leak or a sanitizer report fails the test; libFuzzer prints the input and stack,
# and the input is left in SCRATCH/artifacts.
foreach(var MODE FUZZER CORPUS SCRATCH)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RunFuzzer.cmake: ${var} is not set")
  endif()
endforeach()
if(NOT EXISTS ${FUZZER})
  message(FATAL_ERROR "${FUZZER} is not built (the main build builds it: hourglass_fuzz_build)")
endif()
file(GLOB seeds LIST_DIRECTORIES false ${CORPUS}/*)
if(NOT seeds)
  message(FATAL_ERROR "No corpus files in ${CORPUS}")
endif()
set(artifacts ${SCRATCH}/artifacts/)
file(MAKE_DIRECTORY ${artifacts})

if(MODE STREQUAL "run")
  set(copy ${SCRATCH}/corpus)
  file(REMOVE_RECURSE ${copy})
  file(MAKE_DIRECTORY ${copy})
  file(COPY ${seeds} DESTINATION ${copy})
  set(command ${FUZZER} -seed=1 -runs=${RUNS} -max_len=4096 -timeout=25 -malloc_limit_mb=512
    -artifact_prefix=${artifacts} -print_final_stats=1 ${copy})
elseif(MODE STREQUAL "explore")
  set(kept ${SCRATCH}/corpus)
  if(NOT EXISTS ${kept})
    file(MAKE_DIRECTORY ${kept})
    file(COPY ${seeds} DESTINATION ${kept})
  endif()
  set(command ${FUZZER} -max_total_time=${SECONDS} -max_len=4096 -timeout=25
    -malloc_limit_mb=512 -artifact_prefix=${artifacts}
    -print_final_stats=1 ${kept})
elseif(MODE STREQUAL "replay")
  set(command ${FUZZER} -malloc_limit_mb=512 -artifact_prefix=${artifacts} ${seeds})
else()
  message(FATAL_ERROR "RunFuzzer.cmake: MODE is run, replay or explore, not ${MODE}")
endif()
execute_process(COMMAND ${command} WORKING_DIRECTORY ${SCRATCH} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (${result}); its input and stack are above")
endif()
