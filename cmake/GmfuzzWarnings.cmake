# Warnings and sanitizers for host C code. Use gmfuzz_c_target(<target>) on
# every C target of the project.
set(GMFUZZ_C_WARNINGS -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
    -Wvla -Wformat=2 -Wno-format-nonliteral)
if(GMFUZZ_WERROR)
  list(APPEND GMFUZZ_C_WARNINGS -Werror)
endif()

set(GMFUZZ_SANITIZER_FLAGS)
if(GMFUZZ_SANITIZE)
  set(GMFUZZ_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all
      -fno-omit-frame-pointer)
  add_compile_options("$<$<COMPILE_LANGUAGE:C>:${GMFUZZ_SANITIZER_FLAGS}>")
  add_link_options(${GMFUZZ_SANITIZER_FLAGS})
endif()

# GMFUZZ_COVERAGE (clang only): clang's source-based coverage on all project
# C code, for `gmfuzz coverage` (coverage/coverage_build.h), which configures and
# builds such a tree. Sanitizers and the fuzzer's instrumentation would
# change what runs, so they exclude it.
if(GMFUZZ_COVERAGE)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "gmfuzz: GMFUZZ_COVERAGE=ON needs clang (the C compiler is "
                        "${CMAKE_C_COMPILER_ID})")
  endif()
  if(GMFUZZ_SANITIZE OR GMFUZZ_FUZZ)
    message(FATAL_ERROR "gmfuzz: GMFUZZ_COVERAGE=ON excludes GMFUZZ_SANITIZE and GMFUZZ_FUZZ")
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:C>:-fprofile-instr-generate;-fcoverage-mapping>")
  add_link_options("$<$<LINK_LANGUAGE:C>:-fprofile-instr-generate>")
endif()

# GMFUZZ_FUZZ (clang only): coverage instrumentation for libFuzzer on ALL
# project C code, so that the fuzzer sees the edges of core/, reference/,
# kernel/ and harness/, not only those of the harness. Every C link gets the
# no-link runtime too (the instrumented objects need its hooks); the
# libFuzzer targets themselves add -fsanitize=fuzzer (fuzz/CMakeLists.txt).
#
# GMFUZZ_FUZZ_ENGINE (OSS-Fuzz / ClusterFuzzLite: $LIB_FUZZING_ENGINE): the
# fuzz targets link with these flags instead, and the compile flags are the
# builder's own ($CFLAGS: its instrumentation and sanitizer), whatever the
# engine (libFuzzer, AFL++, honggfuzz): .clusterfuzzlite/build.sh.
set(GMFUZZ_FUZZ_ENGINE "" CACHE STRING
    "Link flags of the fuzzing engine ($LIB_FUZZING_ENGINE); empty: -fsanitize=fuzzer")
set(GMFUZZ_FUZZ_ACTIVE OFF)
if(GMFUZZ_FUZZ AND NOT GMFUZZ_FUZZ_ENGINE STREQUAL "")
  set(GMFUZZ_FUZZ_ACTIVE ON)
elseif(GMFUZZ_FUZZ AND CMAKE_C_COMPILER_ID MATCHES "Clang")
  set(GMFUZZ_FUZZ_ACTIVE ON)
  add_compile_options("$<$<COMPILE_LANGUAGE:C>:-fsanitize=fuzzer-no-link>")
  add_link_options("$<$<LINK_LANGUAGE:C>:-fsanitize=fuzzer-no-link>")
endif()

# Links a fuzz target with its engine.
function(gmfuzz_link_engine target)
  if(GMFUZZ_FUZZ_ENGINE STREQUAL "")
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  else()
    separate_arguments(engine UNIX_COMMAND "${GMFUZZ_FUZZ_ENGINE}")
    target_link_options(${target} PRIVATE ${engine})
  endif()
endfunction()

function(gmfuzz_c_target target)
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:C>:${GMFUZZ_C_WARNINGS}>")
  # A program that links the CUDA backend would be linked through nvcc's
  # host compiler (g++), which knows neither -fsanitize=fuzzer nor the
  # coverage runtime: in a fuzzing tree clang links every program, with the
  # C++ runtime the CUDA objects need.
  get_target_property(type ${target} TYPE)
  if(GMFUZZ_FUZZ_ACTIVE AND GMFUZZ_HAVE_CUDA AND type STREQUAL "EXECUTABLE")
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
    target_link_libraries(${target} PRIVATE stdc++)
  endif()
endfunction()
