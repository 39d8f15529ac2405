# corpus/regress/ (CORPUS) must keep covering every class of difference,
# the nine of SPEC section 4 and gmfuzz's own four, and all five modes, and
# hold reproducers only.
cmake_minimum_required(VERSION 3.25)
set(classes stale_tail stale_host_seqlens negative_token_rounding sentinel_wrap
    sentinel_deep_negative swa_int32_truncation out_cache_loc_absent legacy_raises
    fused_out_of_bounds narrow_max_seq_pages seqlen_int32_wrap negative_swa_mapping
    negative_q_stride)
set(modes decode draft_decode target_verify draft_extend draft_extend_v2)
file(GLOB files "${CORPUS}/*.json")
set(seen_classes)
set(seen_modes)
foreach(f IN LISTS files)
  file(READ "${f}" text)
  string(JSON format GET "${text}" format)
  if(NOT format STREQUAL "gmfuzz-repro-v1")
    message(FATAL_ERROR "${f}: a ${format}, not a gmfuzz-repro-v1")
  endif()
  string(JSON mode GET "${text}" case mode)
  list(APPEND seen_modes "${mode}")
  string(JSON n LENGTH "${text}" classes)
  math(EXPR last "${n} - 1")
  foreach(k RANGE ${last})
    string(JSON class GET "${text}" classes ${k})
    list(APPEND seen_classes "${class}")
  endforeach()
endforeach()
foreach(want IN LISTS classes modes)
  if(NOT want IN_LIST seen_classes AND NOT want IN_LIST seen_modes)
    message(FATAL_ERROR "${CORPUS}: no reproducer of ${want}")
  endif()
endforeach()
list(LENGTH files n_files)
message(STATUS "${n_files} reproducers: all 13 classes and 5 modes")
