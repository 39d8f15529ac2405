# `gmfuzz promote`, as a user runs it, into a corpus under WORK (the build
# tree): adding, deduplicating by signature (the smaller file stays),
# refusing what does not replay, is not minimized or is no reproducer.
# CASES is tests/data/cases.
include(${CMAKE_CURRENT_LIST_DIR}/test_cli_steps.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(C "${WORK}/corpus")
set(sig "decode\\|negative_token_rounding\\|page_table")
set(name "class_negative_token_rounding\\.page_table\\.predicted\\.\\.decode\\.negative_token_rounding\\.page_table\\.json")

# Two reproducers of one signature: fully minimized, and cut short (larger).
cli_step(make_small 0 "wrote" minimize "${CASES}/negative_token.json" -o "${WORK}/small.json")
cli_step(make_large 0 "wrote" minimize "${CASES}/negative_token.json" --max-runs 3
         -o "${WORK}/large.json")

cli_step(add 0 "added ${C}/${name}: ${sig} \\([0-9]+ bytes\\)"
         promote "${WORK}/large.json" --corpus "${C}")
cli_step(same_again 0 "kept ${C}/${name} \\([0-9]+ bytes\\): it holds ${sig}; "
         promote "${WORK}/large.json" --corpus "${C}")
cli_step(smaller_replaces 0 "replaced ${C}/${name} \\([0-9]+ bytes\\) by ${C}/${name} \\([0-9]+ bytes\\): ${sig}"
         promote "${WORK}/small.json" --corpus "${C}")
cli_step(larger_kept 0 "kept ${C}/${name} [^\n]*${WORK}/large.json would take [0-9]+ bytes"
         promote "${WORK}/large.json" --corpus "${C}")
file(GLOB held "${C}/*.json")
list(LENGTH held n_held)
file(SIZE "${C}/class_negative_token_rounding.page_table.predicted..decode.negative_token_rounding.page_table.json" kept_size)
file(SIZE "${WORK}/small.json" small_size)
if(NOT n_held EQUAL 1 OR NOT kept_size EQUAL small_size)
  message(FATAL_ERROR "the corpus holds ${n_held} files (${held}), the kept one ${kept_size} "
                      "bytes; expected the small reproducer alone (${small_size} bytes)")
endif()
cli_step(corpus_replays_exactly 0 "1 passed, 0 failed" replay --exact "${C}")

# Refusals: exit 1, the corpus unchanged.
cli_step(not_a_repro 1 "refused ${CASES}/negative_token.json is a case, not a reproducer"
         promote "${CASES}/negative_token.json" --corpus "${C}")
file(READ "${WORK}/small.json" text)
string(REPLACE "\"minimized\":true" "\"minimized\":false" unminimized "${text}")
file(WRITE "${WORK}/unminimized.json" "${unminimized}")
cli_step(not_minimized 1 "refused ${WORK}/unminimized.json is not minimized [^\n]*--minimize"
         promote "${WORK}/unminimized.json" --corpus "${C}")
cli_step(minimize_here 0 "  \\(minimized here in [0-9]+ runs\\)"
         promote "${WORK}/unminimized.json" --corpus "${C}" --minimize)
string(REPLACE "\"fused\":{\"cache_seqlens\":[1]" "\"fused\":{\"cache_seqlens\":[9]" tampered
       "${text}")
file(WRITE "${WORK}/tampered.json" "${tampered}")
cli_step(does_not_replay 1
         "refused ${WORK}/tampered.json does not replay as recorded: fused \\(recorded\\): cache_seqlens\\[0\\]: expected 9, got 1"
         promote "${WORK}/tampered.json" --corpus "${C}")
string(REPLACE "\"signature\":\"decode|negative_token_rounding|page_table\""
       "\"signature\":\"decode|stale_tail|page_table\"" resigned "${text}")
file(WRITE "${WORK}/resigned.json" "${resigned}")
cli_step(other_signature 1
         "refused ${WORK}/resigned.json replays as ${sig}, but records decode\\|stale_tail\\|page_table"
         promote "${WORK}/resigned.json" --corpus "${C}")
cli_step(mixed 1 "0 added, 0 replaced, 1 kept, 1 refused"
         promote "${WORK}/small.json" "${CASES}/negative_token.json" --corpus "${C}")
file(GLOB held "${C}/*")
list(LENGTH held n_held)
if(NOT n_held EQUAL 1)
  message(FATAL_ERROR "refusals changed the corpus: ${held}")
endif()

# Usage and unreadable input.
cli_step(no_file 2 "gmfuzz promote: give at least one REPRO.json" promote --corpus "${C}")
cli_step(corpus_needs_folder 2 "gmfuzz promote: --corpus needs a folder" promote x.json --corpus)
cli_step(missing_file 3 "gmfuzz promote: ${WORK}/none.json: cannot open"
         promote "${WORK}/none.json" --corpus "${C}")
