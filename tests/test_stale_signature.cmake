# A reproducer whose recorded signature is not what its recorded outputs
# give (stale, or tampered to hide as known) is new in triage and report,
# in its own bucket, whatever the baseline (--baseline) lists: copies of a
# legacy-raise regress file SRC under WORK (the build tree), one with its
# "signature" and "classes" changed to an accepted class's, judged against
# a baseline that accepts that class, lists the claimed signature and the
# stale bucket, and not legacy raises.
include(${CMAKE_CURRENT_LIST_DIR}/test_cli_steps.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/dir")
file(READ "${SRC}" text)
set(claimed "decode|stale_tail|page_table")
string(REPLACE "\"signature\":\"decode|legacy_raises|-\"" "\"signature\":\"${claimed}\""
       tampered "${text}")
string(REPLACE "\"classes\":[\"legacy_raises\"]" "\"classes\":[\"stale_tail\"]"
       tampered "${tampered}")
if(tampered STREQUAL text OR NOT tampered MATCHES "stale_tail\"\\]")
  message(FATAL_ERROR "${SRC}: no legacy-raise signature and classes to change")
endif()
file(WRITE "${WORK}/dir/tampered.json" "${tampered}")
file(WRITE "${WORK}/known.json" "{\"format\": \"gmfuzz-known-v1\",
 \"classes\": [{\"class\": \"stale_tail\", \"decision\": \"accepted\", \"explanation\": \"test\"}],
 \"signatures\": [{\"signature\": \"${claimed}\", \"decision\": \"accepted\", \"explanation\": \"test\"}],
 \"buckets\": [{\"bucket\": \"stale_signature|recorded|recomputed\", \"decision\": \"accepted\",
               \"explanation\": \"test: no baseline accepts a stale reproducer\"}]}\n")
set(B --baseline "${WORK}/known.json")

# replay and show already refuse it; triage and report now say it is new.
cli_step(replay 1 "FAIL ${WORK}/dir/tampered.json: signature: recorded decode\\|stale_tail"
         replay "${WORK}/dir/tampered.json")
cli_step(triage_row 1 "NEW\\(stale\\) +1  .*tampered.json \\(bs [0-9]+\\) +decode\\|stale_tail\\|page_table\n"
         triage "${WORK}/dir" ${B})
cli_step(triage_why 1
         "stale reproducer ${WORK}/dir/tampered.json: signature: recorded decode\\|stale_tail\\|page_table, recomputed decode\\|legacy_raises\\|- \\(classes: recorded \\[stale_tail\\], recomputed \\[legacy_raises\\]\\)\n"
         triage "${WORK}/dir" ${B})
cli_step(triage_bucket 1 "NEW +1 +1  stale_signature\\|recorded\\|recomputed  \\|"
         triage "${WORK}/dir" ${B})
cli_step(triage_totals 1 "1 signature, 1 new \\(1 stale\\), 1 input \\(0 unreadable\\)\n"
         triage "${WORK}/dir" ${B})
cli_step(triage_json 1 "\t\"stale\":\t1,\n" triage "${WORK}/dir" ${B} --json)
cli_step(report 1 "1 signatures? in 1 failing inputs?: 1 new\n"
         report "${WORK}/dir" ${B} --out "${WORK}/report")
file(READ "${WORK}/report/report.md" md)
if(NOT md MATCHES "stale reproducer: signature: recorded decode[^|]*[|]stale[^|]*tail")
  message(FATAL_ERROR "report.md does not say the reproducer is stale:\n${md}")
endif()

# The untampered copy: its real signature, new (legacy raises are not
# accepted here), not stale.
file(REMOVE "${WORK}/dir/tampered.json")
configure_file("${SRC}" "${WORK}/dir/genuine.json" COPYONLY)
cli_step(genuine 1 "NEW +1  .*genuine.json \\(bs [0-9]+\\) +decode\\|legacy_raises\\|-\n"
         triage "${WORK}/dir" ${B})
cli_step(genuine_totals 1 "1 signature, 1 new, 1 input \\(0 unreadable\\)\n"
         triage "${WORK}/dir" ${B})
