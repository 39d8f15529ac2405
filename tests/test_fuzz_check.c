/* fuzz_check: match, known and failure decisions, and the reproducer a
 * failure leaves behind (before the check returns).
 *
 *   test_fuzz_check KNOWN_JSON SCRATCH_DIR
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "fuzz_encode.h"
#include "gm_json.h"
#include "harness.h"
#include "gm_test.h"
#include "triage_cases.h"

static harness_backend *cpu;
static triage_baseline *known;
static triage_baseline *nothing_known; /* triage_baseline_empty: every difference is new */
static const char *scratch;

static fuzz_check_config config(const char *dir) {
    fuzz_check_config cfg = {
        .backend = cpu, .level = GM_COMPARE_LIVE, .baseline = known, .strict_baseline = false,
        .failure_dir = dir, .engine = "libfuzzer", .execs = 77,
    };
    return cfg;
}

/* Files in `dir` whose names start with "failure-". */
static size_t count_failures(const char *dir, char *last, size_t size) {
    DIR *d = opendir(dir);
    size_t n = 0;
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, "failure-", 8) == 0) {
            snprintf(last, size, "%s/%s", dir, e->d_name);
            n++;
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    return n;
}

/* Tests run again in the same build tree: start from an empty folder. */
static void clear_failures(const char *dir) {
    char path[1024];
    while (count_failures(dir, path, sizeof path) > 0) {
        CHECK(unlink(path) == 0);
    }
}

static void negative_token(gm_case *c) {
    tc_case(c, GM_MODE_DECODE, 16, 16, 1, 1, 5);
    c->req_to_token[0] = -1;
}

/* Two rows, q_stride -2: cu_seqlens_q broadcasts on the legacy side only
 * (class negative_q_stride; new to a baseline that knows nothing). */
static void negative_q_stride(gm_case *c) {
    tc_case(c, GM_MODE_DRAFT_EXTEND_V2, 1, 1, 1, 2, 1);
    c->q_stride = -2;
}

static void test_match_and_known_write_nothing(void) {
    char dir[512], last[1024];
    snprintf(dir, sizeof dir, "%s/fuzz-check-quiet", scratch);
    fuzz_check_config cfg = config(dir);
    gm_case c;
    triage_finding f;
    tc_case(&c, GM_MODE_DECODE, 16, 16, 1, 1, 5);
    CHECK_EQ_I64(fuzz_check_case(&cfg, &c, &f), FUZZ_CHECK_MATCH);
    CHECK_EQ_I64(f.status, GM_STATUS_MATCH);
    gm_case_free(&c);
    negative_token(&c);
    CHECK_EQ_I64(fuzz_check_case(&cfg, &c, &f), FUZZ_CHECK_KNOWN);
    CHECK(strcmp(f.signature, "decode|negative_token_rounding|page_table") == 0);
    CHECK_EQ_I64(fuzz_check_case(&cfg, &c, NULL), FUZZ_CHECK_KNOWN);
    gm_case_free(&c);
    CHECK(access(dir, F_OK) != 0); /* not even the folder */
    CHECK_EQ_I64(count_failures(dir, last, sizeof last), 0);
}

/* A failure's reproducer: named by signature, pid and execs; complete;
 * it replays. */
static void test_failure_is_saved(void) {
    char dir[512], last[1024], expected_tail[64];
    snprintf(dir, sizeof dir, "%s/fuzz-check-saved/nested", scratch);
    clear_failures(dir);
    fuzz_check_config cfg = config(dir);
    cfg.baseline = nothing_known;
    gm_case c;
    triage_finding f;
    negative_q_stride(&c);
    CHECK_EQ_I64(fuzz_check_case(&cfg, &c, &f), FUZZ_CHECK_FAILURE);
    CHECK(strcmp(f.signature, "draft_extend_v2|negative_q_stride|cu_seqlens_q") == 0);
    CHECK_EQ_I64(count_failures(dir, last, sizeof last), 1);
    snprintf(expected_tail, sizeof expected_tail, "-%ld-77.json", (long)getpid());
    CHECK_STR_CONTAINS(last, expected_tail);
    const char *slash = strrchr(last, '/');
    const char *name = slash != NULL ? slash + 1 : last;
    CHECK(strlen(name) == strlen("failure-") + 16 + strlen(expected_tail));
    CHECK(strspn(name + 8, "0123456789abcdef") == 16);
    /* the same signature at the same count: the same file, not a second */
    CHECK_EQ_I64(fuzz_check_case(&cfg, &c, &f), FUZZ_CHECK_FAILURE);
    CHECK_EQ_I64(count_failures(dir, last, sizeof last), 1);
    cfg.execs = 78;
    CHECK_EQ_I64(fuzz_check_case(&cfg, &c, &f), FUZZ_CHECK_FAILURE);
    CHECK_EQ_I64(count_failures(dir, last, sizeof last), 2);

    gm_doc doc;
    gm_error err = {0};
    harness_replay_outcome outcome = {0};
    CHECK(gm_json_read_file(last, NULL, &doc, &err));
    CHECK(harness_replay_doc(cpu, &doc, GM_COMPARE_LIVE, &outcome, &err) && outcome.passed);
    CHECK(doc.kind == GM_DOC_REPRO && !doc.repro.minimized);
    CHECK_STR_CONTAINS(doc.repro.found_by, "libfuzzer");
    CHECK(strcmp(doc.repro.signature, f.signature) == 0);
    CHECK(doc.repro.n_classes == 1 && strcmp(doc.repro.classes[0], "negative_q_stride") == 0);
    gm_doc_free(&doc);
    gm_case_free(&c);
}

static void test_strict_baseline_fails_known(void) {
    char dir[512], last[1024];
    snprintf(dir, sizeof dir, "%s/fuzz-check-strict", scratch);
    clear_failures(dir);
    fuzz_check_config cfg = config(dir);
    cfg.strict_baseline = true;
    gm_case c;
    negative_token(&c);
    CHECK_EQ_I64(fuzz_check_case(&cfg, &c, NULL), FUZZ_CHECK_FAILURE);
    CHECK_EQ_I64(count_failures(dir, last, sizeof last), 1);
    cfg.strict_baseline = false;
    cfg.baseline = NULL; /* no baseline: nothing is known */
    cfg.failure_dir = NULL; /* and nothing saved */
    CHECK_EQ_I64(fuzz_check_case(&cfg, &c, NULL), FUZZ_CHECK_FAILURE);
    gm_case_free(&c);
}

/* A folder that cannot be created: the failure is not on disk, and says
 * so (FUZZ_CHECK_UNSAVED: the harness exits and the campaign ends with
 * its own exit code), never passing for a saved one. */
static void test_unwritable_folder(void) {
    char file[512], dir[600];
    snprintf(file, sizeof file, "%s/fuzz-check-a-file", scratch);
    FILE *f = fopen(file, "w");
    CHECK(f != NULL);
    if (f != NULL) {
        fclose(f);
    }
    snprintf(dir, sizeof dir, "%s/below", file);
    fuzz_check_config cfg = config(dir);
    cfg.baseline = nothing_known;
    gm_case c;
    negative_q_stride(&c);
    CHECK_EQ_I64(fuzz_check_case(&cfg, &c, NULL), FUZZ_CHECK_UNSAVED);
    cfg.failure_dir = NULL; /* not asked to save: a plain failure */
    CHECK_EQ_I64(fuzz_check_case(&cfg, &c, NULL), FUZZ_CHECK_FAILURE);
    gm_case_free(&c);
}

/* Keep-going mode (the campaign's default): a failure that could not be
 * saved is not marked seen, so the next time its signature shows up it is
 * saved; once saved, repeats are not saved again. */
static void test_unsaved_is_retried(void) {
    char file[512], bad[600], good[512], last[1024];
    snprintf(file, sizeof file, "%s/fuzz-check-a-file", scratch);
    snprintf(bad, sizeof bad, "%s/below", file); /* cannot be made: a file is in the way */
    snprintf(good, sizeof good, "%s/fuzz-check-retry", scratch);
    FILE *in_the_way = fopen(file, "w");
    CHECK(in_the_way != NULL);
    if (in_the_way != NULL) {
        fclose(in_the_way);
    }
    clear_failures(good);
    setenv("GMFUZZ_FAILURE_DIR", bad, 1);
    setenv("GMFUZZ_KEEP_GOING", "1", 1);
    setenv("GMFUZZ_STRICT_BASELINE", "1", 1);
    static fuzz_harness h;
    gm_error err = {0};
    CHECK(fuzz_harness_open(&h, HARNESS_BACKEND_CPU, "libfuzzer", &err));
    gm_case c;
    negative_token(&c);
    uint8_t *data = NULL;
    size_t size = 0;
    CHECK(fuzz_encode(&c, NULL, &data, &size, &err));
    triage_finding f;
    fuzz_check_result r = fuzz_harness_run(&h, data, size, &f);
    CHECK_EQ_I64(r, FUZZ_CHECK_UNSAVED);
    CHECK(fuzz_harness_must_abort(&h, r)); /* the target exits: the campaign must know */
    h.check.failure_dir = good;             /* the disk has room again */
    CHECK_EQ_I64(fuzz_harness_run(&h, data, size, &f), FUZZ_CHECK_FAILURE);
    CHECK_EQ_I64(count_failures(good, last, sizeof last), 1); /* retried and saved */
    CHECK_EQ_I64(fuzz_harness_run(&h, data, size, &f), FUZZ_CHECK_FAILURE);
    CHECK_EQ_I64(count_failures(good, last, sizeof last), 1); /* seen now: not again */
    free(data);
    gm_case_free(&c);
    fuzz_harness_close(&h);
    unsetenv("GMFUZZ_FAILURE_DIR");
    unsetenv("GMFUZZ_KEEP_GOING");
    unsetenv("GMFUZZ_STRICT_BASELINE");
}

int main(int argc, char **argv) {
    gm_error err = {0};
    if (argc != 3) {
        fprintf(stderr, "usage: test_fuzz_check KNOWN_JSON SCRATCH_DIR\n");
        return 2;
    }
    scratch = argv[2];
    if (!harness_backend_open(HARNESS_BACKEND_CPU, &cpu, &err) || !triage_baseline_load(argv[1], &known, &err) ||
        !triage_baseline_empty(&nothing_known, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    GM_RUN(test_match_and_known_write_nothing);
    GM_RUN(test_failure_is_saved);
    GM_RUN(test_strict_baseline_fails_known);
    GM_RUN(test_unwritable_folder);
    GM_RUN(test_unsaved_is_retried);
    triage_baseline_free(known);
    triage_baseline_free(nothing_known);
    harness_backend_close(cpu);
    GM_TEST_END();
}
