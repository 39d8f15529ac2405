# `gmfuzz export pytest`: every regress reproducer exported and compiled,
# the content of a few checked, usage errors, and (GPU machines) the
# exported tests run end to end through docs/examples/fused_shim.py.
# Included from tests/CMakeLists.txt (gmfuzz_cli_test, D).
set(GMFUZZ_REGRESS ${PROJECT_SOURCE_DIR}/corpus/regress)
set(X ${CMAKE_CURRENT_BINARY_DIR}/export)
file(MAKE_DIRECTORY ${X})

gmfuzz_cli_test(export_not_pytest 2 "the one format is pytest" "export|junit|x.json")
gmfuzz_cli_test(export_no_output 2 "takes one REPRO.json and -o test_x.py"
                "export|pytest|${GMFUZZ_REGRESS}/decode.legacy_raises._.json")
gmfuzz_cli_test(export_not_a_repro 3 "negative_token.json is a case, not a reproducer"
                "export|pytest|${D}/cases/negative_token.json|-o|${X}/case.py")
gmfuzz_cli_test(export_missing 3 "none.json: cannot open" "export|pytest|${X}/none.json|-o|${X}/n.py")
set_tests_properties(cli.export_not_pytest cli.export_no_output cli.export_not_a_repro
                     cli.export_missing PROPERTIES LABELS "cli;export")

find_program(GMFUZZ_PYTHON3 python3)
if(NOT GMFUZZ_PYTHON3)
  message(STATUS "python3 not found: the export tests that compile and run Python are left out")
  return()
endif()

# Every regress reproducer, exported and compiled (py_compile).
add_test(NAME export.regress_compiles
         COMMAND ${CMAKE_COMMAND} -DGMFUZZ=$<TARGET_FILE:gmfuzz> -DCORPUS=${GMFUZZ_REGRESS}
                 -DOUT=${X}/regress -DPYTHON=${GMFUZZ_PYTHON3}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/test_export_compile.cmake)
set_tests_properties(export.regress_compiles PROPERTIES LABELS "export"
                     FIXTURES_SETUP exported_regress)

# One file's content (regexes per line; 'run:' ones on the output of
# `python3 FILE`, which must end '0 failed' with or without torch). An
# unmatched '[' would join CMake list items: such a one is written \x5b.
function(gmfuzz_export_content name repro)
  add_test(NAME export.content_${name}
           COMMAND ${GMFUZZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/test_export_content.py
                   $<TARGET_FILE:gmfuzz> ${repro} ${X}/test_${name}.py ${ARGN})
  set_tests_properties(export.content_${name} PROPERTIES LABELS "export")
endfunction()
gmfuzz_export_content(mismatch ${GMFUZZ_REGRESS}/decode.negative_token_rounding.page_table.json
  "^signature:         decode\\|negative_token_rounding\\|page_table$"
  "^first difference:  page_table\\[0\\]\\[0\\]: reference \\(legacy\\) -1, fused 0$"
  "^written by:        gmfuzz ${PROJECT_VERSION} \\(gmfuzz export pytest\\)"
  "^SIGNATURE = \"decode\\|negative_token_rounding\\|page_table\"$"
  "^COMPARE = \"live\"$"
  "^FUSED_MODULE_ENV = \"GMFUZZ_FUSED_MODULE\"$"
  "^    \"sglang\\.kernels\\.ops\\.kvcache\\.trtllm_mha_graph_metadata\",$"
  "^FIRST_DIFFERENCE = {\"buffer\": \"page_table\", \"index\": \\[0, 0\\], \"reference\": -1, \"fused\": 0}$"
  "^LIVE_PAGE_COLUMNS = \\[1\\]$"
  "^REQ_TO_TOKEN = \\x5b$"
  "run:^SKIP test_fused_kernel: ")
gmfuzz_export_content(out_of_bounds ${GMFUZZ_REGRESS}/decode.fused_out_of_bounds._.json
  "^fused overran:     out_of_bounds: read of req_to_token\\[1\\] outside \\x5b0, 1\\)$"
  "^FIRST_DIFFERENCE = None$"
  "run:^SKIP test_fused_kernel: never run: the fused kernel would touch memory outside its buffers \\(out_of_bounds: ")
gmfuzz_export_content(legacy_raises ${GMFUZZ_REGRESS}/decode.legacy_raises._.json
  "^legacy raised:     empty_reduction: step 1: "
  "^SEQ_LENS = \\[\\]$"
  "^    \"error\": \"empty_reduction: step 1: max\\(\\) of seq_lens, an empty tensor of size 0\",$")
gmfuzz_export_content(strict ${GMFUZZ_REGRESS}/decode.stale_tail.page_table.json
  "^COMPARE = \"strict\"$"
  "^LIVE_PAGE_COLUMNS = None$")
gmfuzz_export_content(draft_extend
  ${GMFUZZ_REGRESS}/draft_extend.negative_token_rounding.page_table.json
  "^MODE = \"draft_extend\"$"
  "^QLENS = \\[0\\]$"
  "^    \"cu_seqlens_q\": 0,$")

# Integers past 2^53 stay exact: a reproducer made here (minimize, one run,
# so that the value stays) with an SWA slot of 2^62 + 3.
file(WRITE ${X}/big_slot_case.json
  "{\"format\": \"gmfuzz-case-v1\", \"mode\": \"decode\", \"page_size\": 1,
    \"max_context_len\": 1, \"req_to_token\": [[0]], \"req_pool_indices\": [0],
    \"seq_lens\": [1], \"swa\": {\"mapping\": [0, \"4611686018427387907\", -1],
    \"page_table\": false, \"out_cache_loc\": [1], \"out_len\": 1}}\n")
gmfuzz_cli_test(export_make_big_slot 0 "^wrote "
                "minimize|${X}/big_slot_case.json|-o|${X}/big_slot.json|--max-runs|1")
set_tests_properties(cli.export_make_big_slot PROPERTIES LABELS "cli;export"
                     FIXTURES_SETUP export_big_slot)
gmfuzz_export_content(exact_int64 ${X}/big_slot.json
  "^SWA_MAPPING = \\[0, 4611686018427387907, -1\\]$"
  "^    \"swa_out_cache_loc\": \\[4611686018427387907\\],$"
  "^first difference:  swa_out_cache_loc\\[0\\]: reference \\(legacy\\) 3, fused 4611686018427387907$")
set_tests_properties(export.content_exact_int64 PROPERTIES FIXTURES_REQUIRED export_big_slot)

# On a GPU machine with torch: every exported regress test, end to end, the
# fused side through gmfuzz's own kernel (docs/examples/fused_shim.py over
# libgmfuzz_kernel.so). Skipped (77) without torch or a GPU.
if(GMFUZZ_HAVE_CUDA)
  add_test(NAME export.gpu_shim
           COMMAND ${GMFUZZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/test_export_gpu.py ${X}/regress)
  set_tests_properties(export.gpu_shim PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu;export"
                       FIXTURES_REQUIRED exported_regress
                       ENVIRONMENT "PYTHONPATH=${PROJECT_SOURCE_DIR}/docs/examples;GMFUZZ_FUSED_MODULE=fused_shim;GMFUZZ_KERNEL_LIBRARY=$<TARGET_FILE:gmfuzz_kernel>")
endif()
