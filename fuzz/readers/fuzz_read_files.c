/* fuzz_read_files: libFuzzer targets of the run-folder readers that take a
 * path (FUZZ_READ_FILE: campaign, stats, baseline): the input is written
 * to a file of the process's own and read. Oracle: no crash, no memory
 * error or leak (sanitizer builds), and every failure has a message that
 * names the file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_reader_file.h"
#include "triage.h"
#include "repro.h"

#define FUZZ_READ_CAMPAIGN 1
#define FUZZ_READ_STATS 2
#define FUZZ_READ_BASELINE 3

#ifndef FUZZ_READ_FILE
#define FUZZ_READ_FILE FUZZ_READ_CAMPAIGN
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool fuzz_read_files_one(const char *path, gm_error *err) {
#if FUZZ_READ_FILE == FUZZ_READ_CAMPAIGN
    repro_rundir_campaign c;
    memset(&c, 0, sizeof c);
    bool ok = repro_rundir_campaign_read(path, &c, err);
    repro_rundir_campaign_free(&c);
    return ok;
#elif FUZZ_READ_FILE == FUZZ_READ_STATS
    repro_rundir_sample *samples = NULL;
    size_t n = 0;
    bool ok = repro_rundir_stats_read(path, &samples, &n, err);
    free(samples);
    return ok;
#else
    triage_baseline *b = NULL;
    bool ok = triage_baseline_load(path, &b, err);
    triage_baseline_free(b);
    return ok;
#endif
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_reader_file_put(data, size);
    gm_error err = {0};
    if (!fuzz_read_files_one(path, &err) && strstr(err.msg, path) == NULL) {
        fprintf(stderr, "fuzz_read_files: the message does not name the file: %s\n", err.msg);
        abort();
    }
    return 0;
}
