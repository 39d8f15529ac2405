# Triage: the classifier, the baseline, the minimizer, `gmfuzz minimize`.
# Included from tests/CMakeLists.txt (gmfuzz_test, gmfuzz_cli_test, D).
gmfuzz_test(test_classify SOURCES test_classify.c LIBS gmfuzz_triage LABELS triage
            ARGS ${GMFUZZ_SHARED_DIR}/conformance/vectors)
gmfuzz_test(test_baseline SOURCES test_baseline.c LIBS gmfuzz_triage LABELS triage
            ARGS ${PROJECT_SOURCE_DIR}/corpus/known.json ${CMAKE_CURRENT_BINARY_DIR})
gmfuzz_test(test_minimize SOURCES test_minimize.c LIBS gmfuzz_triage LABELS triage
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
