# Triage: the classifier, the baseline, the minimizer, `gmfuzz minimize`.
# Included from tests/CMakeLists.txt (gmfuzz_test, gmfuzz_cli_test, D).
gmfuzz_test(test_classify SOURCES test_classify.c LIBS gmfuzz_triage LABELS triage
            ARGS ${GMFUZZ_SHARED_DIR}/conformance/vectors)
# Buckets that hold still, buckets of targets, keys of the old form (issue 23).
gmfuzz_test(test_buckets SOURCES test_buckets.c LIBS gmfuzz_triage LABELS triage)
# The buckets of a drift of the C reference from torch (issue 27).
gmfuzz_test(test_drift_buckets SOURCES test_drift_buckets.c LIBS gmfuzz_triage LABELS triage
            ARGS ${PROJECT_SOURCE_DIR}/corpus/vectors)
gmfuzz_test(test_baseline SOURCES test_baseline.c LIBS gmfuzz_triage LABELS triage
            ARGS ${PROJECT_SOURCE_DIR}/corpus/known.json ${CMAKE_CURRENT_BINARY_DIR})
gmfuzz_test(test_signature SOURCES test_signature.c LIBS gmfuzz_triage LABELS triage
            ARGS ${GMFUZZ_SHARED_DIR}/conformance/vectors)
# Writes the fixture folders the `gmfuzz triage` tests below read.
gmfuzz_test(test_rundir SOURCES test_rundir.c LIBS gmfuzz_repro gmfuzz_campaign LABELS triage
            ARGS ${CMAKE_CURRENT_BINARY_DIR}/rundir)
set_tests_properties(test_rundir PROPERTIES FIXTURES_SETUP rundir)
gmfuzz_test(test_minimize SOURCES test_minimize.c LIBS gmfuzz_minimize gmfuzz_repro LABELS triage
            ARGS ${CMAKE_CURRENT_BINARY_DIR})
gmfuzz_test(test_fuzz_check SOURCES test_fuzz_check.c LIBS gmfuzz_fuzz LABELS triage
            ARGS ${PROJECT_SOURCE_DIR}/corpus/known.json ${CMAKE_CURRENT_BINARY_DIR})

# `gmfuzz minimize`, as a user runs it. The reproducer it writes must replay.
set(M ${CMAKE_CURRENT_BINARY_DIR}/minimize)
set(K ${PROJECT_SOURCE_DIR}/corpus/known.json)
set(V ${GMFUZZ_SHARED_DIR}/conformance/vectors)
file(MAKE_DIRECTORY ${M})
gmfuzz_cli_test(minimize_negative_token 0 "^wrote .*minimize-ntr.json"
                "minimize|${D}/cases/negative_token.json|-o|${M}/minimize-ntr.json")
gmfuzz_cli_test(minimize_replay 0 "^1 passed, 0 failed" "replay|${M}/minimize-ntr.json")
gmfuzz_cli_test(minimize_from_repro 0 "^after: bs 1, pool 1 x 1"
                "minimize|${M}/minimize-ntr.json|--output|${M}/minimize-again.json")
gmfuzz_cli_test(minimize_known 0 "^baseline .*known.json: known$"
                "minimize|${D}/cases/negative_token.json|-o|${M}/known.json|--baseline|${K}")
gmfuzz_cli_test(minimize_strict 0 "^signature: decode\\|stale_tail\\|page_table \\(at strict\\)"
                "minimize|--compare|strict|${D}/cases/decode_basic.json|-o|${M}/strict.json")
gmfuzz_cli_test(minimize_budget 0 "^3 runs"
                "minimize|${D}/cases/pool_index_out_of_range.json|-o|${M}/budget.json|--max-runs|3")
gmfuzz_cli_test(minimize_vector 0 "^after: bs 1, pool 1 x 1, max_context_len 1"
                "minimize|${V}/conf-00016.json|-o|${M}/vector.json")
gmfuzz_cli_test(minimize_match 1 "the two sides match at live: nothing to minimize"
                "minimize|${D}/cases/decode_basic.json|-o|${M}/minimize-match.json")
gmfuzz_cli_test(minimize_no_output 2 "takes one CASE.json and -o REPRO.json"
                "minimize|${D}/cases/negative_token.json")
gmfuzz_cli_test(minimize_bad_runs 2 "--max-runs takes a number"
                "minimize|${D}/cases/negative_token.json|-o|x.json|--max-runs|many")
gmfuzz_cli_test(minimize_bad_baseline 3 "none.json: cannot open"
                "minimize|${D}/cases/negative_token.json|-o|${M}/x.json|--baseline|${M}/none.json")
set_tests_properties(cli.minimize_negative_token PROPERTIES FIXTURES_SETUP minimize_ntr)
set_tests_properties(cli.minimize_replay cli.minimize_from_repro PROPERTIES
                     FIXTURES_REQUIRED minimize_ntr)

# `gmfuzz triage` and `gmfuzz show` on the fixtures test_rundir writes
# (R/camp: four signatures, two of them new against R/known.json).
set(R ${CMAKE_CURRENT_BINARY_DIR}/rundir)
gmfuzz_cli_test(triage_totals 1 "^4 signatures, 2 new, 6 inputs \\(2 unreadable\\)$"
                "triage|${R}/camp|--baseline|${R}/known.json")
gmfuzz_cli_test(triage_new_row 1
                "^NEW +1  2026-11-29T12:00:02Z  2026-11-29T12:00:02Z  failures/f-c.json \\(bs 0\\) +decode\\|legacy_raises\\|-$"
                "triage|${R}/camp|--baseline|${R}/known.json")
gmfuzz_cli_test(triage_known_row 1
                "^known\\(accepted\\) +3  2026-11-29T12:00:01Z  2026-11-29T12:00:09Z  repros/first.json \\(bs 1\\) +decode\\|negative_token_rounding\\|page_table$"
                "triage|${R}/camp|--baseline|${R}/known.json")
gmfuzz_cli_test(triage_bug_row 1 "^known\\(bug\\) +1 .* decode\\|stale_host_seqlens\\|page_table$"
                "triage|${R}/camp|--baseline|${R}/known.json")
gmfuzz_cli_test(triage_unreadable 1 "2 files not read as reproducers; the last: .*notes.json: format"
                "triage|${R}/camp|--baseline|${R}/known.json")
# The buckets come first; the fixtures were written before buckets existed
# (no bucket in the files: each is classified from its recorded outputs).
gmfuzz_cli_test(triage_buckets 1 "^4 buckets, 2 new$"
                "triage|${R}/camp|--baseline|${R}/known.json")
gmfuzz_cli_test(triage_bucket_row 1
                "^NEW +1 +1  legacy_raises[|]zero_step: step 3[|]-  [|]  repros/only.json [(]bs 1[)]$"
                "triage|${R}/camp|--baseline|${R}/known.json")
gmfuzz_cli_test(triage_default_baseline 0 "^4 signatures, 0 new, 6 inputs" "triage|${R}/camp")
gmfuzz_cli_test(triage_strict 1 "^4 signatures, 4 new" "triage|${R}/camp|--strict-baseline")
gmfuzz_cli_test(triage_plain 1 "^[^ ]*rundir/plain: folder of reproducers, baseline none"
                "triage|${R}/plain|--strict-baseline")
gmfuzz_cli_test(triage_json 1 "\"format\":.\"gmfuzz-triage-v1\""
                "triage|${R}/camp|--baseline|${R}/known.json|--json")
gmfuzz_cli_test(triage_json_new 1 "^.\"new\":.2,$" "triage|${R}/camp|--baseline|${R}/known.json|--json")
gmfuzz_cli_test(triage_json_decision 1 "\"decision\":.\"bug\",.*\"by_signature\":.true"
                "triage|${R}/camp|--baseline|${R}/known.json|--json")
gmfuzz_cli_test(triage_missing 3 "no-such-run: no such folder" "triage|${R}/no-such-run")
gmfuzz_cli_test(triage_bad_campaign 3 "bad-jobs/campaign.json: jobs: " "triage|${R}/bad-jobs")
gmfuzz_cli_test(triage_bad_stats 3 "bad-execs/stats.jsonl: line 2: execs: missing"
                "triage|${R}/bad-execs")
gmfuzz_cli_test(triage_bad_baseline 3 "none.json: cannot open"
                "triage|${R}/camp|--baseline|${R}/none.json")
gmfuzz_cli_test(triage_no_dir 2 "takes a run folder DIR" "triage")
gmfuzz_cli_test(triage_two_baselines 2 "exclude each other"
                "triage|${R}/camp|--baseline|${K}|--strict-baseline")
gmfuzz_cli_test(triage_help 0 "^usage: gmfuzz triage DIR" "triage|--help")
set_tests_properties(cli.triage_totals cli.triage_new_row cli.triage_known_row cli.triage_bug_row
                     cli.triage_unreadable cli.triage_default_baseline cli.triage_strict
                     cli.triage_plain cli.triage_json cli.triage_json_new cli.triage_json_decision
                     cli.triage_bad_campaign cli.triage_bad_stats cli.triage_bad_baseline
                     PROPERTIES FIXTURES_REQUIRED rundir)

gmfuzz_cli_test(show_case 0 "^  page_table\\[0\\]\\[0\\] +-1 +0  negative_token_rounding$"
                "show|${D}/cases/negative_token.json")
gmfuzz_cli_test(show_case_shape 0 "^  seq_lens \\[5\\]; seq_lens_cpu = seq_lens$"
                "show|${D}/cases/negative_token.json")
gmfuzz_cli_test(show_vector 0 "^re-run on cpu: agrees with the recording$" "show|${V}/conf-00016.json")
gmfuzz_cli_test(show_vector_row 0 "^  page_table\\[2\\]\\[0\\] +-3 +-2  negative_token_rounding$"
                "show|${V}/conf-00016.json")
gmfuzz_cli_test(show_vector_max 0 "^  \\.\\.\\. 12 more$" "show|${V}/conf-00016.json|--max|2")
gmfuzz_cli_test(show_vector_uncompared 0 "^  \\(8 more elements differ where live does not compare\\)$"
                "show|${V}/conf-00016.json")
gmfuzz_cli_test(show_vector_strict 0 "^verdict: mismatch at strict: 22 elements differ in page_table$"
                "show|${V}/conf-00016.json|--compare|strict")
gmfuzz_cli_test(show_out_of_bounds 0 "^fused: out_of_bounds: "
                "show|${D}/cases/pool_index_out_of_range.json")
gmfuzz_cli_test(show_repro_raises 0 "^reference \\(legacy\\) raised: empty_reduction: "
                "show|${R}/camp/failures/f-c.json")
gmfuzz_cli_test(show_repro_found 0 "^found by libfuzzer at 2026-11-29T12:00:01Z after 10 execs$"
                "show|${R}/camp/repros/first.json")
gmfuzz_cli_test(show_tampered 1 "^re-run on cpu: DISAGREES with the recording: fused \\(recorded\\): cu_seqlens_k\\[0\\]"
                "show|${R}/tampered.json")
gmfuzz_cli_test(show_tampered_row 1 "^  cu_seqlens_k\\[0\\] +0 +99  unclassified$"
                "show|${R}/tampered.json")
gmfuzz_cli_test(show_bad_max 2 "--max takes a number of rows" "show|${D}/cases/negative_token.json|--max|x")
gmfuzz_cli_test(show_two_files 2 "takes one REPRO.json"
                "show|${D}/cases/negative_token.json|${D}/cases/decode_basic.json")
gmfuzz_cli_test(show_malformed 3 "malformed/bad_mode.json: mode" "show|${D}/malformed/bad_mode.json")
gmfuzz_cli_test(show_help 0 "^usage: gmfuzz show DOC.json" "show|--help")
set_tests_properties(cli.show_repro_raises cli.show_repro_found cli.show_tampered
                     cli.show_tampered_row PROPERTIES FIXTURES_REQUIRED rundir)
