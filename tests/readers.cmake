# Hostile folders and documents (issue 11, items 5 and 8): what the reader
# commands do with empty or unreadable input, control bytes, --help.

# replay: nothing to replay is not a pass (exit 5, like pytest's "no tests").
set(GMFUZZ_HOSTILE_DIR ${CMAKE_CURRENT_BINARY_DIR}/data/hostile)
file(MAKE_DIRECTORY ${GMFUZZ_HOSTILE_DIR}/empty ${GMFUZZ_HOSTILE_DIR}/x.json
     ${GMFUZZ_HOSTILE_DIR}/unreadable)
gmfuzz_cli_test(replay_empty_folder 5 "no document found: no [*][.]json file in .*empty"
                "replay|${GMFUZZ_HOSTILE_DIR}/empty")
gmfuzz_cli_test(replay_folder_named_json 5 "no document found" "replay|${GMFUZZ_HOSTILE_DIR}/x.json")

# triage and report: a folder whose every file is unreadable has no verdict.
file(WRITE ${GMFUZZ_HOSTILE_DIR}/unreadable/a.json "{\"format\": ")
file(WRITE ${GMFUZZ_HOSTILE_DIR}/unreadable/b.json "[1, 2]")
gmfuzz_cli_test(triage_all_unreadable 3 "none of its 2 files could be read"
                "triage|--strict-baseline|${GMFUZZ_HOSTILE_DIR}/unreadable")
gmfuzz_cli_test(report_all_unreadable 3 "none of its 2 files could be read"
                "report|--strict-baseline|--out|${GMFUZZ_HOSTILE_DIR}/unreadable-report|${GMFUZZ_HOSTILE_DIR}/unreadable")

# A case named with ESC sequences, BEL, CR and the C1 CSI: printed escaped.
set(H ${CMAKE_CURRENT_SOURCE_DIR}/data/hostile)
gmfuzz_cli_test(run_escapes_control 0 "^case: \\\\x1b\\]0;owned\\\\x07\\\\x1b\\[2J\\\\x1b\\[31mRED\\\\x0d\\\\u009bfake "
                "run|${H}/escape_name.json")
gmfuzz_cli_test(show_escapes_control 0 "^case: \\\\x1b\\]0;owned\\\\x07"
                "show|${H}/escape_name.json")

# --help on every command: its usage on stdout, exit 0; its first line
# names the command, and the flags listed are its own.
foreach(cmd run replay agree bench minimize promote triage show report fuzz sweep sweep-job
        target-hub decode coverage)
  gmfuzz_cli_test(help_${cmd} 0 "^usage: gmfuzz ${cmd} " "${cmd}|--help")
endforeach()
gmfuzz_cli_test(help_sweep_flags 0 "^  --batch N  +cases per round trip" "sweep|--help")
gmfuzz_cli_test(help_sweep_not_fuzz 0 "^  --cases N  +cases per job, then stop$"
                "sweep|--help")
gmfuzz_cli_test(help_sweep_job_flags 0 "^usage: gmfuzz sweep-job \\[-max_total_time=S\\]"
                "sweep-job|-h")
gmfuzz_cli_test(sweep_usage_error 2 "^gmfuzz sweep: " "sweep|--frobnicate")
gmfuzz_cli_test(help_fuzz_flags 0 "^  --minimize-time S  +the minimization's budget" "fuzz|--help")
gmfuzz_cli_test(help_export_pytest 0 "^usage: gmfuzz export pytest " "export|pytest|--help")
gmfuzz_cli_test(help_export 0 "^usage: gmfuzz export pytest " "export|-h")
# The shared flags through getopt_long: a prefix is not a flag, '=' is.
gmfuzz_cli_test(flag_prefix_refused 2 "unknown option '--comp'" "run|--comp|strict|x.json")
gmfuzz_cli_test(flag_equals 1 "verdict: mismatch at strict"
                "run|--compare=strict|${CMAKE_CURRENT_SOURCE_DIR}/data/cases/decode_basic.json")
gmfuzz_cli_test(flag_missing_value 2 "--max-bs needs a value" "run|x.json|--max-bs")
# --max-elements had code 1 in the shared table, getopt_long's code for a
# positional argument: its value became a second path ("takes exactly one
# CASE.json") and the limit was never applied.
gmfuzz_cli_test(flag_max_elements 3 "over the limit max_elements = 5"
                "run|${CMAKE_CURRENT_SOURCE_DIR}/data/cases/decode_basic.json|--max-elements|5")
# Every command's own options in one getopt_long table with the shared
# ones (cli/cli_getopt.h): whole names only, '=' taken, the option named.
gmfuzz_cli_test(flag_show_max_equals 0 "^ran on cpu"
                "show|--max=3|${CMAKE_CURRENT_SOURCE_DIR}/data/cases/negative_token.json")
gmfuzz_cli_test(flag_show_max_missing 2 "--max takes a number of rows"
                "show|${CMAKE_CURRENT_SOURCE_DIR}/data/cases/negative_token.json|--max")
gmfuzz_cli_test(flag_replay_prefix 2 "unknown option '--exa'" "replay|--exa|x.json")
gmfuzz_cli_test(flag_minimize_output_missing 2 "gmfuzz minimize: -o needs a value"
                "minimize|x.json|-o")
gmfuzz_cli_test(flag_promote_corpus_missing 2 "gmfuzz promote: --corpus needs a folder"
                "promote|x.json|--corpus")
gmfuzz_cli_test(flag_export_output_missing 2 "gmfuzz export: --output needs a file"
                "export|pytest|x.json|--output")
gmfuzz_cli_test(flag_fuzz_prefix 2 "unknown option '--tim' .see gmfuzz fuzz --help.$"
                "fuzz|--tim|5")
gmfuzz_cli_test(flag_fuzz_positional 2 "unknown option 'extra'" "fuzz|extra")
gmfuzz_cli_test(flag_fuzz_missing 2 "gmfuzz fuzz: --out: bad or missing value$" "fuzz|--out")
gmfuzz_cli_test(flag_fuzz_help_then_error 2 "unknown option '--frobnicate'"
                "fuzz|--help|--frobnicate")
gmfuzz_cli_test(flag_sweep_bad_value 2 "gmfuzz sweep: --batch: bad or missing value '0'"
                "sweep|--batch|0")
gmfuzz_cli_test(flag_agree_unknown 2 "gmfuzz agree: unknown option '--case'" "agree|--case|3")
gmfuzz_cli_test(flag_agree_missing 2 "gmfuzz agree: --cases needs a value" "agree|--cases")
gmfuzz_cli_test(flag_triage_missing 2 "unknown option or missing value '--baseline'"
                "triage|dir|--baseline")
gmfuzz_cli_test(flag_report_two_dirs 2 "takes one folder, got 'b' too" "report|a|b")
gmfuzz_cli_test(flag_coverage_jobs 2 "--jobs x: not a number 1..1024" "coverage|dir|--jobs|x")
gmfuzz_cli_test(flag_coverage_help 0 "^  -h, --help" "coverage|--help")

# One JSON acceptance rule: the full reader and the triage scanner agree
# (NUL and other bytes <= 32 are not whitespace; nothing after the value).
gmfuzz_test(test_readers SOURCES test_readers.c LIBS gmfuzz_repro
            ARGS ${CMAKE_CURRENT_SOURCE_DIR}/data/cases/decode_basic.json)

# A reproducer's recorded signature and classes are checked against the
# classifier (issue 11, item 5): a tampered signature, a tampered class list
# and tampered fused outputs fail replay, show and export.
set(GMFUZZ_REGRESS_DIR ${PROJECT_SOURCE_DIR}/corpus/regress)
file(READ ${GMFUZZ_REGRESS_DIR}/decode.legacy_raises._.json raises)
string(REPLACE "\"signature\":\"decode|legacy_raises|-\"" "\"signature\":\"decode|stale_tail|page_table\""
       tampered "${raises}")
file(WRITE ${GMFUZZ_HOSTILE_DIR}/tampered_signature.json "${tampered}")
string(REPLACE "\"classes\":[\"legacy_raises\"]" "\"classes\":[\"legacy_raises\",\"stale_tail\"]"
       tampered "${raises}")
file(WRITE ${GMFUZZ_HOSTILE_DIR}/tampered_classes.json "${tampered}")
file(READ ${GMFUZZ_REGRESS_DIR}/decode.stale_host_seqlens.page_table-swa_page_table.json stale)
string(REPLACE "\"fused\":{\"cache_seqlens\":[1]" "\"fused\":{\"cache_seqlens\":[7]" tampered "${stale}")
file(WRITE ${GMFUZZ_HOSTILE_DIR}/tampered_outputs.json "${tampered}")
set(GMFUZZ_SIG_FAIL "signature: recorded decode[|]stale_tail[|]page_table, recomputed decode[|]legacy_raises[|]-")
gmfuzz_cli_test(replay_tampered_signature 1 "^FAIL .*tampered_signature.json: ${GMFUZZ_SIG_FAIL}"
                "replay|${GMFUZZ_HOSTILE_DIR}/tampered_signature.json")
gmfuzz_cli_test(replay_tampered_classes 1
                "^FAIL .*tampered_classes.json: .*classes: recorded \\[stale_tail, legacy_raises\\], recomputed \\[legacy_raises\\]"
                "replay|${GMFUZZ_HOSTILE_DIR}/tampered_classes.json")
gmfuzz_cli_test(show_tampered_signature 1 "^re-run on cpu: DISAGREES with the recording: ${GMFUZZ_SIG_FAIL}"
                "show|${GMFUZZ_HOSTILE_DIR}/tampered_signature.json")
gmfuzz_cli_test(export_tampered_signature 1 "refused .*tampered_signature.json: replay rejects it: ${GMFUZZ_SIG_FAIL}"
                "export|pytest|${GMFUZZ_HOSTILE_DIR}/tampered_signature.json|-o|${GMFUZZ_HOSTILE_DIR}/t1.py")
gmfuzz_cli_test(export_tampered_outputs 1 "refused .*tampered_outputs.json: replay rejects it: "
                "export|pytest|${GMFUZZ_HOSTILE_DIR}/tampered_outputs.json|-o|${GMFUZZ_HOSTILE_DIR}/t2.py")
gmfuzz_cli_test(replay_tampered_outputs 1 "^0 passed, 1 failed"
                "replay|${GMFUZZ_HOSTILE_DIR}/tampered_outputs.json")

# The reader fuzz targets (fuzz/readers, issue 11 item 4). Each gets the
# repository's documents of its kind as seeds (copied into the build tree:
# libFuzzer adds to the first corpus folder); in the fuzz tree each runs
# GMFUZZ_READER_RUNS inputs from them with the dictionary, elsewhere its
# seeds are replayed through it (under the sanitizers in the ASan tree).
set(GMFUZZ_READER_SEEDS ${CMAKE_CURRENT_BINARY_DIR}/fuzz-readers/seeds)
set(GMFUZZ_READER_DICT ${PROJECT_SOURCE_DIR}/fuzz/readers/readers.dict)
set(GMFUZZ_READER_RUNS 3000 CACHE STRING "inputs each reader fuzz target runs in ctest (fuzz tree)")
file(GLOB seeds_case ${CMAKE_CURRENT_SOURCE_DIR}/data/cases/*.json ${CMAKE_CURRENT_SOURCE_DIR}/data/valid/case_*.json
     ${CMAKE_CURRENT_SOURCE_DIR}/data/malformed/*.json ${CMAKE_CURRENT_SOURCE_DIR}/data/hostile/*.json)
file(GLOB seeds_vector ${GMFUZZ_SHARED_DIR}/conformance/vectors/*.json)
list(SUBLIST seeds_vector 0 40 seeds_vector) # a sample: the 250 are alike
file(GLOB seeds_repro ${PROJECT_SOURCE_DIR}/corpus/regress/*.json ${CMAKE_CURRENT_SOURCE_DIR}/data/replay/*.json
     ${CMAKE_CURRENT_SOURCE_DIR}/data/valid/repro_*.json)
file(GLOB seeds_campaign ${PROJECT_SOURCE_DIR}/fuzz/readers/seeds/campaign/*)
file(GLOB seeds_stats ${PROJECT_SOURCE_DIR}/fuzz/readers/seeds/stats/*)
set(seeds_baseline ${PROJECT_SOURCE_DIR}/corpus/known.json)
set(seeds_jsonscan ${seeds_repro} ${seeds_case})
set(seeds_differential ${seeds_repro} ${seeds_case} ${seeds_campaign} ${seeds_baseline})
foreach(name IN LISTS GMFUZZ_READER_TARGETS)
  file(REMOVE_RECURSE ${GMFUZZ_READER_SEEDS}/${name})
  file(COPY ${seeds_${name}} DESTINATION ${GMFUZZ_READER_SEEDS}/${name})
  if(GMFUZZ_FUZZ_ACTIVE)
    set(work ${CMAKE_CURRENT_BINARY_DIR}/fuzz-readers/work/${name})
    add_test(NAME fuzz.read_${name}
             COMMAND ${CMAKE_COMMAND} -E env TMPDIR=${CMAKE_CURRENT_BINARY_DIR}/fuzz-readers
                     sh -c "rm -rf '${work}' && mkdir -p '${work}' && exec \"$0\" -runs=${GMFUZZ_READER_RUNS} -seed=1 -max_len=16384 -dict=${GMFUZZ_READER_DICT} '${work}' '${GMFUZZ_READER_SEEDS}/${name}'"
                     $<TARGET_FILE:gmfuzz-read-${name}>)
    set_tests_properties(fuzz.read_${name} PROPERTIES LABELS "fuzz" TIMEOUT 300)
  else()
    file(GLOB replay ${GMFUZZ_READER_SEEDS}/${name}/*)
    add_test(NAME fuzz.read_${name}_seeds COMMAND gmfuzz-read-${name} ${replay})
    set_tests_properties(fuzz.read_${name}_seeds PROPERTIES LABELS "fuzz;unit"
                         ENVIRONMENT "TMPDIR=${CMAKE_CURRENT_BINARY_DIR}/fuzz-readers")
  endif()
endforeach()
