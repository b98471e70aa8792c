# The fuzz build's compiler flags (HOURGLASS_FUZZ_ONLY, tests/fuzz/README.md): everything it
# compiles, the engine libraries included, carries libFuzzer's coverage hooks and AddressSanitizer
# and UndefinedBehaviorSanitizer, so that a bug deep in the engine shows where it happens. The
# fuzz targets add libFuzzer's main (-fsanitize=fuzzer) at their link (tests/fuzz/CMakeLists.txt).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "The fuzz build needs clang++ (libFuzzer), not ${CMAKE_CXX_COMPILER_ID}: "
    "configure it with -DCMAKE_CXX_COMPILER=clang++, as tests/fuzz/CMakeLists.txt does")
endif()
# Debug keeps Q_ASSERT and assert; -O1 keeps the build short and the fuzzers fast enough.
set(CMAKE_CXX_FLAGS_DEBUG "-O1 -g")
set(HOURGLASS_SANITIZERS address,undefined)
add_compile_options(-fsanitize=fuzzer-no-link,${HOURGLASS_SANITIZERS}
  -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
add_link_options(-fsanitize=${HOURGLASS_SANITIZERS})
