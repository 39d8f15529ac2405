# The campaign driver of `gmfuzz fuzz` (cli/campaign_*.c), a library so the
# tests reach its pieces. Included by cli/CMakeLists.txt.
add_library(gmfuzz_campaign STATIC
  campaign_afl.c campaign_argv.c campaign_baseline.c campaign_engine.c campaign_failures.c
  campaign_libfuzzer.c campaign_lock.c campaign_minimizer.c campaign_log.c campaign_options.c campaign_proc.c campaign_progress.c campaign_record.c
  campaign_report.c campaign_repro.c campaign_run.c campaign_setup.c campaign_signal.c
  campaign_stats.c campaign_status.c campaign_summary.c campaign_target.c campaign_worker.c
  campaign_hub.c campaign_placement.c campaign_merge.c campaign_merge_corpus.c
  campaign_merge_failures.c campaign_merge_record.c)
target_include_directories(gmfuzz_campaign PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(gmfuzz_campaign PUBLIC gmfuzz_minimize gmfuzz_repro gmfuzz_reports gmfuzz_fuzz m)
# Where the seeds, dictionary and baseline are, and where this tree builds
# the fuzz targets: the defaults of a campaign run from this tree.
target_compile_definitions(gmfuzz_campaign PRIVATE
  GMFUZZ_SOURCE_DIR="${PROJECT_SOURCE_DIR}" GMFUZZ_FUZZ_BUILD_DIR="${PROJECT_BINARY_DIR}/fuzz")
# campaign.json names the tool that ran the campaign.
set_source_files_properties(campaign_record.c campaign_merge_record.c PROPERTIES
                            COMPILE_DEFINITIONS GMFUZZ_VERSION="${PROJECT_VERSION}")
gmfuzz_c_target(gmfuzz_campaign)
