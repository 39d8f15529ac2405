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

# --help on every command: its usage on stdout, exit 0.
foreach(cmd run replay agree bench minimize promote triage show report)
  gmfuzz_cli_test(help_${cmd} 0 "^usage: gmfuzz ${cmd} " "${cmd}|--help")
endforeach()
gmfuzz_cli_test(help_export_pytest 0 "^usage: gmfuzz export pytest " "export|pytest|--help")
gmfuzz_cli_test(help_export 0 "^usage: gmfuzz export pytest " "export|-h")
gmfuzz_cli_test(help_fuzz 0 "^usage: gmfuzz fuzz " "fuzz|--help")
# The shared flags through getopt_long: a prefix is not a flag, '=' is.
gmfuzz_cli_test(flag_prefix_refused 2 "unknown option '--comp'" "run|--comp|strict|x.json")
gmfuzz_cli_test(flag_equals 1 "verdict: mismatch at strict"
                "run|--compare=strict|${CMAKE_CURRENT_SOURCE_DIR}/data/cases/decode_basic.json")
gmfuzz_cli_test(flag_missing_value 2 "--max-bs needs a value" "run|x.json|--max-bs")

# One JSON acceptance rule: the full reader and the triage scanner agree
# (NUL and other bytes <= 32 are not whitespace; nothing after the value).
gmfuzz_test(test_readers SOURCES test_readers.c LIBS gmfuzz_core
            ARGS ${CMAKE_CURRENT_SOURCE_DIR}/data/cases/decode_basic.json)
