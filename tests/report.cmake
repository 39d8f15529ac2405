# Reports (reports/, `gmfuzz report`) and what campaigns record for them
# (campaign/campaign_record.c). Included from tests/CMakeLists.txt
# (gmfuzz_test, gmfuzz_cli_test, gmfuzz_campaign_test, FAKE, CASES).
find_package(Python3 COMPONENTS Interpreter)
set(R ${CMAKE_CURRENT_BINARY_DIR}/report)
set(JUNIT_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/junit_check.py)
set(FOLDER_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/report_folder_check.py)
set(BROWSER_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/report_browser.sh)

# --- The writers on run folders built by hand ------------------------------
gmfuzz_test(test_report SOURCES test_report.c LIBS gmfuzz_reports LABELS report
            ARGS ${R}/unit)
set_tests_properties(test_report PROPERTIES FIXTURES_SETUP report_unit)

# A Python check with no test of its own could pass anything: it must
# reject a suite whose counts lie and a failure without a message.
file(WRITE ${R}/bad-count.xml
     "<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"2\" errors=\"0\" skipped=\"0\">"
     "<testcase classname=\"c\" name=\"n\"><failure message=\"m\"/></testcase>"
     "</testsuite></testsuites>\n")
file(WRITE ${R}/bad-message.xml
     "<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\">"
     "<testcase classname=\"c\" name=\"n\"><failure type=\"t\"/></testcase>"
     "</testsuite></testsuites>\n")

if(Python3_Interpreter_FOUND)
  function(report_junit_test name file)
    add_test(NAME report.${name} COMMAND ${Python3_EXECUTABLE} ${JUNIT_CHECK} ${file} ${ARGN})
    set_tests_properties(report.${name} PROPERTIES LABELS "report")
  endfunction()
  report_junit_test(junit_rejects_count ${R}/bad-count.xml)
  report_junit_test(junit_rejects_message ${R}/bad-message.xml)
  set_tests_properties(report.junit_rejects_count PROPERTIES
                       PASS_REGULAR_EXPRESSION "failures=\"2\" but it holds 1")
  set_tests_properties(report.junit_rejects_message PROPERTIES
                       PASS_REGULAR_EXPRESSION "<failure> without a message")
  # The unit test's documents: a new signature, an accepted one, a triaged
  # bug; then the same with an infrastructure problem.
  report_junit_test(junit_unit ${R}/unit/out-full/junit.xml
                    --tests 4 --failures 1 --errors 0 --skipped 1)
  report_junit_test(junit_unit_problem ${R}/unit/out-problem/junit.xml
                    --tests 4 --failures 1 --errors 1 --skipped 1)
  report_junit_test(junit_unit_empty ${R}/unit/out-empty/junit.xml
                    --tests 1 --failures 0 --errors 0 --skipped 0)
  set_tests_properties(report.junit_unit report.junit_unit_problem report.junit_unit_empty
                       PROPERTIES FIXTURES_REQUIRED report_unit)
endif()

# --- A real campaign folder -------------------------------------------------
# `gmfuzz fuzz` on the stand-in libFuzzer target (tests/campaign.cmake):
# strict baseline, so both differences of the test cases are new. 10 ms an
# execution makes the jobs run about 2 s, long enough for samples.
add_test(NAME report.campaign
         COMMAND ${CMAKE_COMMAND} -E env FAKE_EXEC_US=10000
                 ${CMAKE_COMMAND} -DGMFUZZ=$<TARGET_FILE:gmfuzz> -DOUT=${R}/campaign -DRC=1
                 "-DREGEX=found 2 new signatures&&  report: ${R}/campaign/report.html [(]and report.md, summary.json, junit.xml beside it[)]"
                 "-DARGS=--target|$<TARGET_FILE:fake_libfuzzer>|--seeds|${CASES}|--strict-baseline|--jobs|2|--runs|200|--time|60"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/campaign_check.cmake)
set_tests_properties(report.campaign PROPERTIES FIXTURES_SETUP report_campaign
                     LABELS "report;campaign")
# With the shipped baseline the stand-in finds nothing: exit 0, an empty
# but complete report.
add_test(NAME report.campaign_clean
         COMMAND ${CMAKE_COMMAND} -E env FAKE_EXEC_US=1000
                 ${CMAKE_COMMAND} -DGMFUZZ=$<TARGET_FILE:gmfuzz> -DOUT=${R}/clean -DRC=0
                 "-DREGEX=found nothing new&&  report: ${R}/clean/report.html"
                 "-DARGS=--target|$<TARGET_FILE:fake_libfuzzer>|--seeds|${CASES}|--jobs|1|--runs|300|--time|60"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/campaign_check.cmake)
set_tests_properties(report.campaign_clean PROPERTIES FIXTURES_SETUP report_clean
                     LABELS "report;campaign")
# Ctrl-C: the campaign still minimizes, records how it ended, and reports.
add_test(NAME report.sigint
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/campaign_sigint.sh $<TARGET_FILE:gmfuzz>
                 $<TARGET_FILE:fake_libfuzzer> ${CASES} ${R}/sigint INT)
set_tests_properties(report.sigint PROPERTIES FIXTURES_SETUP report_sigint
                     LABELS "report;campaign")

# Reports that cannot be written (report.html is in the way, a folder) are
# an infrastructure problem: exit 4, said in the summary and campaign.json,
# and nothing else is lost (summary.txt, the other reports are there).
string(CONCAT blocked_script
  "rm -rf \"$1\" && mkdir -p \"$1/report.html\" && "
  "FAKE_EXEC_US=1000 \"$2\" fuzz --out \"$1\" --target \"$3\" --seeds \"$4\" "
  "--jobs 1 --runs 100 --time 60 >\"$1.out\" 2>&1; rc=$?; cat \"$1.out\"; "
  "[ $rc -eq 4 ] && grep -q 'problem: reports: .*report.html' \"$1/summary.txt\" && "
  "grep -q '\"exit_code\":4' \"$1/campaign.json\" && [ -f \"$1/summary.json\" ]")
add_test(NAME report.campaign_report_fails
         COMMAND sh -c "${blocked_script}" sh ${R}/blocked $<TARGET_FILE:gmfuzz>
                 $<TARGET_FILE:fake_libfuzzer> ${CASES})
set_tests_properties(report.campaign_report_fails PROPERTIES LABELS "report;campaign")

# A campaign killed outright (SIGKILL to its session: gmfuzz and its jobs,
# each in a process group of its own, no chance to clean up) keeps its
# samples and a campaign.json that says it never ended; `gmfuzz report`
# still reports it, with the unfinished campaign as an <error> testcase.
# Killed once stats.jsonl holds two samples and a failure is saved (polled, at
# most 120 s, not a fixed sleep: a loaded machine starts the campaign late;
# its budget is far past that).
string(CONCAT killed_script
  "rm -rf \"$1\"; FAKE_EXEC_US=1000 setsid \"$2\" fuzz --out \"$1\" --target \"$3\" "
  "--seeds \"$4\" --strict-baseline --jobs 1 --time 600 >\"$1.out\" 2>&1 & "
  "pid=$!; n=0; while [ $n -lt 1200 ] && "
  "{ [ \"$(cat \"$1/stats.jsonl\" 2>/dev/null | wc -l)\" -lt 2 ] || "
  "! ls \"$1\"/failures/failure-*.json >/dev/null 2>&1; }; do sleep 0.1; n=$((n+1)); done; "
  "pkill -KILL -s $pid; wait $pid; "
  "grep -q '\"exit_code\":-1' \"$1/campaign.json\" || { echo 'campaign.json says it ended'; exit 1; }; "
  "[ \"$(wc -l <\"$1/stats.jsonl\")\" -ge 2 ] || { echo 'samples lost'; exit 1; }; "
  "\"$2\" report \"$1\" --out \"$1/report\"; rc=$?; "
  "[ $rc -eq 1 ] && grep -q 'errors=\"1\"' \"$1/report/junit.xml\" && "
  "grep -q 'never finished' \"$1/report/junit.xml\"")
add_test(NAME report.killed_campaign
         COMMAND sh -c "${killed_script}" sh ${R}/killed $<TARGET_FILE:gmfuzz>
                 $<TARGET_FILE:fake_libfuzzer> ${CASES})
set_tests_properties(report.killed_campaign PROPERTIES LABELS "report;campaign")

if(Python3_Interpreter_FOUND)
  add_test(NAME report.campaign_folder
           COMMAND ${Python3_EXECUTABLE} ${FOLDER_CHECK} ${R}/campaign --exit 1 --new 2
                   --min-samples 2 --new-buckets 2)
  add_test(NAME report.clean_folder
           COMMAND ${Python3_EXECUTABLE} ${FOLDER_CHECK} ${R}/clean --exit 0 --new 0)
  add_test(NAME report.sigint_folder
           COMMAND ${Python3_EXECUTABLE} ${FOLDER_CHECK} ${R}/sigint --exit 1 --new 2
                   --interrupted --min-samples 1)
  report_junit_test(junit_campaign ${R}/campaign/junit.xml
                    --tests 3 --failures 2 --errors 0 --skipped 0)
  report_junit_test(junit_clean ${R}/clean/junit.xml
                    --tests 1 --failures 0 --errors 0 --skipped 0)
  set_tests_properties(report.campaign_folder report.junit_campaign PROPERTIES
                       FIXTURES_REQUIRED report_campaign LABELS "report")
  set_tests_properties(report.clean_folder report.junit_clean PROPERTIES
                       FIXTURES_REQUIRED report_clean LABELS "report")
  set_tests_properties(report.sigint_folder PROPERTIES FIXTURES_REQUIRED report_sigint
                       LABELS "report")
endif()

# --- `gmfuzz report`, as a user runs it ------------------------------------
# By default the folder's own known.json (strict: nothing known): new.
gmfuzz_cli_test(report_campaign 1 "^2 signatures in [0-9]+ failing inputs: 2 new$"
                "report|${R}/campaign|--out|${R}/again")
# The shipped baseline knows both differences: nothing new.
gmfuzz_cli_test(report_known 0 "^2 signatures in [0-9]+ failing inputs: 0 new$"
                "report|${R}/campaign|--baseline|${PROJECT_SOURCE_DIR}/corpus/known.json|--out|${R}/known")
gmfuzz_cli_test(report_paths 1 "^wrote ${R}/paths/junit.xml$"
                "report|${R}/campaign|--out|${R}/paths")
# A plain folder of reproducers (here the campaign's repros/): judged
# against corpus/known.json by default, and only with --out.
gmfuzz_cli_test(report_plain 0 "^2 signatures in 2 failing inputs: 0 new$"
                "report|${R}/campaign/repros|--out|${R}/plain")
gmfuzz_cli_test(report_plain_needs_out 2 "is a folder of reproducers, not a run folder: pass --out"
                "report|${R}/campaign/repros")
set_tests_properties(cli.report_campaign cli.report_known cli.report_paths cli.report_plain
                     cli.report_plain_needs_out PROPERTIES
                     FIXTURES_REQUIRED report_campaign FIXTURES_SETUP report_cli)
gmfuzz_cli_test(report_no_dir 2 "takes a run folder DIR" "report")
gmfuzz_cli_test(report_bad_option 2 "unknown option or missing value '--frobnicate'"
                "report|${R}|--frobnicate")
gmfuzz_cli_test(report_two_baselines 2 "--baseline and --strict-baseline exclude each other"
                "report|${R}|--strict-baseline|--baseline|x.json")
gmfuzz_cli_test(report_missing_dir 3 "/nonexistent/run" "report|/nonexistent/run")
gmfuzz_cli_test(report_bad_baseline 3 "none.json: cannot open"
                "report|${R}|--baseline|${R}/none.json")
gmfuzz_cli_test(report_help 0 "^usage: gmfuzz report DIR" "report|--help")
if(Python3_Interpreter_FOUND)
  report_junit_test(junit_report_known ${R}/known/junit.xml
                    --tests 3 --failures 0 --errors 0 --skipped 0)
  set_tests_properties(report.junit_report_known PROPERTIES FIXTURES_REQUIRED report_cli)
endif()

# --- report.html in a real browser (skipped without Chromium) --------------
add_test(NAME report.browser
         COMMAND ${BROWSER_CHECK} ${R}/campaign/report.html ${R}/browser 2
                 "gmfuzz report: campaign: 2 new signatures")
add_test(NAME report.browser_unit
         COMMAND ${BROWSER_CHECK} ${R}/unit/out-full/report.html ${R}/browser-unit 3
                 "gmfuzz report: run: 1 new signature")
set_tests_properties(report.browser PROPERTIES FIXTURES_REQUIRED report_campaign)
set_tests_properties(report.browser_unit PROPERTIES FIXTURES_REQUIRED report_unit)
set_tests_properties(report.browser report.browser_unit PROPERTIES
                     LABELS "report;browser" SKIP_RETURN_CODE 77 TIMEOUT 240)
