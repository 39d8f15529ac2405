# Regenerates the seed corpus into WORK with the current gmfuzz-seed, as
# docs/FUZZING.md says it is made (CASES as they are, DERIVED with 8
# case-level mutations each), and compares file names (each a hash of its
# bytes) with SEEDS.
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${SEED_TOOL} --canonical ${CASES} -o ${WORK}
                COMMAND_ERROR_IS_FATAL ANY OUTPUT_VARIABLE out)
execute_process(COMMAND ${SEED_TOOL} --canonical --derive 8 ${DERIVED} -o ${WORK}
                COMMAND_ERROR_IS_FATAL ANY OUTPUT_VARIABLE out2)
string(APPEND out "${out2}")
file(GLOB made RELATIVE ${WORK} ${WORK}/*)
file(GLOB kept RELATIVE ${SEEDS} ${SEEDS}/*)
list(SORT made)
list(SORT kept)
if(NOT made STREQUAL kept)
  set(missing ${made})
  list(REMOVE_ITEM missing ${kept})
  set(stale ${kept})
  list(REMOVE_ITEM stale ${made})
  message(FATAL_ERROR "corpus/seed is out of date: regenerate it (docs/FUZZING.md) with\n"
          "  rm -r corpus/seed\n"
          "  gmfuzz-seed --canonical ../shared/conformance/vectors -o corpus/seed\n"
          "  gmfuzz-seed --canonical --derive 8 tests/data/cases -o corpus/seed\n"
          "new: ${missing}\nstale: ${stale}")
endif()
list(LENGTH made n)
message(STATUS "ok: ${n} seeds, up to date (${out})")
