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

function(gmfuzz_c_target target)
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:C>:${GMFUZZ_C_WARNINGS}>")
endfunction()
