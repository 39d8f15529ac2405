/* The run-folder loader (repro_rundir) on fixture folders this test writes:
 *
 *   SCRATCH/camp/    a campaign folder: failures/ (five inputs of three
 *                    signatures, one file that is not a reproducer, one
 *                    truncated), repros/ (minimized reproducers under
 *                    names that do not match their signatures, one of a
 *                    signature with no failure), campaign.json, stats.jsonl
 *   SCRATCH/plain/   reproducers in nested folders, and a case file
 *   SCRATCH/bad-*    a bad campaign.json, a bad stats.jsonl
 *   SCRATCH/split/   one signature's failures in two buckets
 *   SCRATCH/keyed/   a failure file past 256 KiB, named by its key
 *   SCRATCH/known.json  the baseline: one class accepted, one signature "bug"
 *
 * SCRATCH/camp, SCRATCH/known.json and SCRATCH/tampered.json (a
 * reproducer whose recorded fused outputs were changed) stay for the
 * `gmfuzz triage` and `gmfuzz show` tests (tests/triage.cmake).
 *
 *   test_rundir SCRATCH_DIR
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign_failures.h"
#include "triage.h"
#include "harness.h"
#include "repro.h"
#include "gm_test.h"
#include "triage_cases.h"
#include "gm_file.h"

static const char *scratch;
static harness_backend *cpu;

#define SIG_NTR "decode|negative_token_rounding|page_table"
#define SIG_HOST "decode|stale_host_seqlens|page_table"
#define SIG_RAISE "decode|legacy_raises|-"
#define SIG_V2 "draft_extend_v2|legacy_raises|-"

/* ---- fixtures ---------------------------------------------------------- */

/* rm -r: the fixtures are rebuilt from nothing on every run. */
static void remove_tree(const char *path) {
    DIR *d = opendir(path);
    if (d == NULL) {
        unlink(path);
        return;
    }
    char child[1024];
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(child, sizeof child, "%s/%s", path, e->d_name);
            remove_tree(child);
        }
    }
    closedir(d);
    rmdir(path);
}

/* SCRATCH/<rel>, its folders created. */
static const char *fixture_path(char *buf, size_t size, const char *rel) {
    snprintf(buf, size, "%s/%s", scratch, rel);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", buf);
    char *slash = strrchr(dir, '/');
    gm_error err = {0};
    if (slash != NULL) {
        *slash = '\0';
        CHECK(gm_file_make_dirs(dir, &err));
    }
    return buf;
}

static void write_text(const char *rel, const char *text) {
    char path[1024];
    FILE *f = fopen(fixture_path(path, sizeof path, rel), "wb");
    CHECK(f != NULL);
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

/* The cases, by signature; `bs` rows (the minimized ones have one). */
static void build_case(gm_case *c, const char *signature, size_t bs) {
    if (strcmp(signature, SIG_NTR) == 0) {
        tc_case(c, GM_MODE_DECODE, 16, 16, 1, bs, 5);
        c->req_to_token[0] = -1; /* floor -1, trunc 0 */
    } else if (strcmp(signature, SIG_HOST) == 0) {
        tc_case(c, GM_MODE_DECODE, 4, 8, 1, bs, 8);
        tc_seq_lens_cpu(c, 4);
    } else if (strcmp(signature, SIG_RAISE) == 0) {
        tc_case(c, GM_MODE_DECODE, 1, 1, 1, 0, 1); /* max() of an empty batch */
    } else {
        tc_case(c, GM_MODE_DRAFT_EXTEND_V2, 1, 1, 1, bs, 1); /* q_stride 0 */
    }
}

/* Runs the case of `signature` and writes its reproducer to SCRATCH/<rel>;
 * `tamper` (when true) changes a recorded fused value that the verdict
 * does not mention, so that a re-run disagrees with the file; `claim` (when
 * not NULL) is the signature it records instead of its own (a stale file). */
static void write_repro_as(const char *rel, const char *signature, size_t bs, const char *at,
                           uint64_t execs, bool minimized, bool tamper, const char *claim) {
    gm_case c;
    harness_run_result r;
    triage_finding f;
    gm_error err = {0};
    char path[1024];
    build_case(&c, signature, bs);
    harness_run_result_init(&r);
    CHECK(harness_run_case(cpu, &c, GM_COMPARE_LIVE, &r, &err));
    triage_classify(&c, &r, &f);
    CHECK(strcmp(f.signature, signature) == 0);
    if (claim != NULL) {
        snprintf(f.signature, sizeof f.signature, "%s", claim);
    }
    if (tamper) {
        gm_buffer_set(&r.fused.buf[GM_BUF_CU_SEQLENS_K], 0, 99);
    }
    repro_origin origin = {"libfuzzer", execs, minimized, at, NULL};
    CHECK(repro_write(fixture_path(path, sizeof path, rel), &c, &r, &f, HARNESS_BACKEND_CPU,
                      &origin, &err));
    harness_run_result_free(&r);
    gm_case_free(&c);
}

static void write_repro(const char *rel, const char *signature, size_t bs, const char *at,
                        uint64_t execs, bool minimized) {
    write_repro_as(rel, signature, bs, at, execs, minimized, false, NULL);
}

#define CAMPAIGN_JSON                                                                      \
    "{\"format\": \"gmfuzz-campaign-v1\", \"engine\": \"libfuzzer\", \"backend\": \"cpu\", " \
    "\"compare\": \"live\", \"strict_baseline\": false, \"jobs\": 2, \"budget_s\": 60, "    \
    "\"started_at\": \"2026-11-29T12:00:00Z\", \"ended_at\": \"2026-11-29T12:01:00Z\", "    \
    "\"elapsed_s\": 60.5, \"execs\": 123456, \"coverage\": 900, \"corpus\": 77, "          \
    "\"restarts\": 1, \"interrupted\": false, \"problem\": null, \"exit_code\": 1, "       \
    "\"baseline\": \"corpus/known.json\", \"tool_version\": \"gmfuzz 0.1.0\", "            \
    "\"future_key\": [1, 2]}\n"

#define SAMPLE(t, execs) \
    "{\"t\": " t ", \"execs\": " execs ", \"exec_per_sec\": 100, \"coverage\": 5, " \
    "\"corpus\": 3, \"signatures\": 1, \"failures\": 2}"

static void write_campaign_folder(void) {
    char path[1024];
    remove_tree(fixture_path(path, sizeof path, "camp"));
    write_repro("camp/failures/f-a2.json", SIG_NTR, 1, "2026-11-29T12:00:05Z", 50, false);
    write_repro("camp/failures/f-a1.json", SIG_NTR, 3, "2026-11-29T12:00:01Z", 10, false);
    write_repro("camp/failures/f-a3.json", SIG_NTR, 2, "2026-11-29T12:00:09Z", 90, false);
    write_repro("camp/failures/f-b.json", SIG_HOST, 2, "2026-11-29T12:00:03Z", 30, false);
    write_repro("camp/failures/f-c.json", SIG_RAISE, 0, "2026-11-29T12:00:02Z", 20, false);
    write_text("camp/failures/notes.json", "{\"format\": \"gmfuzz-case-v1\"}\n");
    write_text("camp/failures/cut.json", "{\"format\": \"gmfuzz-repro-v1\", \"case\": [1, 2");
    write_text("camp/failures/README", "not JSON, not *.json: not read\n");
    write_repro("camp/repros/first.json", SIG_NTR, 1, "2026-11-29T12:00:01Z", 10, true);
    write_repro("camp/repros/second.json", SIG_HOST, 1, "2026-11-29T12:00:03Z", 30, true);
    write_repro("camp/repros/only.json", SIG_V2, 1, "2026-11-29T12:00:10Z", 100, true);
    write_text("camp/campaign.json", CAMPAIGN_JSON);
    write_text("camp/stats.jsonl", SAMPLE("1.0", "100") "\n\n" SAMPLE("2.0", "250") "\n"
                                   SAMPLE("3.5", "400") "\n{\"t\": 4.5, \"ex");
    write_text("camp/baseline.json", "{\"format\": \"gmfuzz-known-v1\"}\n"); /* not an input */
    /* for `gmfuzz show`: a recording this build does not reproduce */
    write_repro_as("tampered.json", SIG_NTR, 1, "2026-11-29T12:00:00Z", 1, true, true, NULL);
}

static void write_baseline(void) {
    write_text("known.json",
               "{\"format\": \"gmfuzz-known-v1\",\n"
               " \"classes\": [{\"class\": \"negative_token_rounding\", \"decision\": "
               "\"accepted\", \"explanation\": \"floor vs trunc\"}],\n"
               " \"signatures\": [{\"signature\": \"" SIG_HOST "\", \"decision\": \"bug\", "
               "\"explanation\": \"filed as #12\"}]}\n");
}

static triage_baseline *load_baseline(void) {
    char path[1024];
    triage_baseline *b = NULL;
    gm_error err = {0};
    write_baseline();
    CHECK(triage_baseline_load(fixture_path(path, sizeof path, "known.json"), &b, &err));
    return b;
}

/* ---- checks ------------------------------------------------------------ */

static bool ends_with(const char *s, const char *tail) {
    size_t n = s != NULL ? strlen(s) : 0, m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static void check_campaign_fields(const repro_rundir *r) {
    const repro_rundir_campaign *c = &r->campaign;
    CHECK(r->is_campaign && c->present);
    CHECK(strcmp(c->engine, "libfuzzer") == 0 && strcmp(c->backend, "cpu") == 0);
    CHECK(strcmp(c->compare, "live") == 0 && !c->strict_baseline && !c->interrupted);
    CHECK_EQ_I64(c->jobs, 2);
    CHECK(c->budget_s == 60 && c->elapsed_s == 60.5);
    CHECK(strcmp(c->started_at, "2026-11-29T12:00:00Z") == 0);
    CHECK(strcmp(c->ended_at, "2026-11-29T12:01:00Z") == 0);
    CHECK_EQ_I64(c->execs, 123456);
    CHECK_EQ_I64(c->coverage, 900);
    CHECK_EQ_I64(c->corpus, 77);
    CHECK_EQ_I64(c->restarts, 1);
    CHECK_EQ_I64(c->exit_code, 1);
    CHECK(c->problem == NULL);
    CHECK(c->baseline != NULL && strcmp(c->baseline, "corpus/known.json") == 0);
    CHECK(c->tool_version != NULL && strcmp(c->tool_version, "gmfuzz 0.1.0") == 0);
    /* the blank line is skipped, the cut-off last sample left out */
    CHECK_EQ_I64(r->n_samples, 3);
    if (r->n_samples == 3) {
        CHECK(r->samples[0].t == 1.0 && r->samples[2].t == 3.5);
        CHECK_EQ_I64(r->samples[1].execs, 250);
        CHECK_EQ_I64(r->samples[2].exec_per_sec, 100);
        CHECK_EQ_I64(r->samples[2].failures, 2);
    }
}

/* Signatures by first seen: a1 (12:00:01), c (:02), b (:03), only (:10). */
static void check_campaign_signatures(const repro_rundir *r) {
    CHECK_EQ_I64(r->n_sigs, 4);
    if (r->n_sigs != 4) {
        return;
    }
    const repro_rundir_signature *a = &r->sigs[0], *c = &r->sigs[1], *b = &r->sigs[2],
                              *v2 = &r->sigs[3];
    CHECK(strcmp(a->finding.signature, SIG_NTR) == 0);
    CHECK(strcmp(c->finding.signature, SIG_RAISE) == 0);
    CHECK(strcmp(b->finding.signature, SIG_HOST) == 0);
    CHECK(strcmp(v2->finding.signature, SIG_V2) == 0);
    CHECK_EQ_I64(a->count, 3);
    CHECK(strcmp(a->first_seen, "2026-11-29T12:00:01Z") == 0);
    CHECK(strcmp(a->last_seen, "2026-11-29T12:00:09Z") == 0);
    CHECK_EQ_I64(a->first_execs, 10);
    CHECK(ends_with(a->repro, "camp/repros/first.json")); /* matched by signature */
    CHECK(a->smallest != NULL && a->repro != NULL && strcmp(a->smallest, a->repro) == 0);
    CHECK_EQ_I64(a->smallest_bs, 1);
    CHECK(a->smallest_bytes > 100);
    CHECK(a->first_difference.present && a->first_difference.buf == GM_BUF_PAGE_TABLE);
    CHECK_EQ_I64(a->first_difference.reference, -1);
    CHECK_EQ_I64(a->first_difference.fused, 0);
    CHECK(c->repro == NULL && ends_with(c->smallest, "camp/failures/f-c.json"));
    CHECK_EQ_I64(c->smallest_bs, 0);
    CHECK(!c->first_difference.present);
    CHECK_EQ_I64(c->finding.status, GM_STATUS_REFERENCE_ERROR);
    CHECK_EQ_I64(b->count, 1);
    CHECK(ends_with(b->repro, "camp/repros/second.json"));
    /* a reproducer with no failure: its own one input */
    CHECK_EQ_I64(v2->count, 1);
    CHECK(ends_with(v2->repro, "camp/repros/only.json"));
    CHECK(strcmp(v2->first_seen, "2026-11-29T12:00:10Z") == 0);
}

static void check_campaign_baseline(const repro_rundir *r) {
    if (r->n_sigs != 4) {
        return;
    }
    const repro_rundir_signature *a = &r->sigs[0], *c = &r->sigs[1], *b = &r->sigs[2];
    CHECK(a->baseline.known && !a->baseline.by_signature);
    CHECK_EQ_I64(a->baseline.decision, TRIAGE_DECISION_ACCEPTED);
    CHECK(a->baseline.explanation != NULL &&
          strcmp(a->baseline.explanation, "floor vs trunc") == 0);
    CHECK(b->baseline.known && b->baseline.by_signature);
    CHECK_EQ_I64(b->baseline.decision, TRIAGE_DECISION_BUG);
    CHECK(!c->baseline.known && c->baseline.explanation == NULL);
    CHECK_EQ_I64(repro_rundir_new(r), 2);
}

static void test_campaign_folder(void) {
    char path[1024];
    repro_rundir r;
    gm_error err = {0};
    triage_baseline *b = load_baseline();
    write_campaign_folder();
    CHECK(repro_rundir_load(fixture_path(path, sizeof path, "camp"), b, &r, &err));
    if (err.msg[0] != '\0') {
        fprintf(stderr, "%s\n", err.msg);
    }
    check_campaign_fields(&r);
    check_campaign_signatures(&r);
    check_campaign_baseline(&r);
    CHECK_EQ_I64(r.inputs, 6); /* 3 + 1 + 1 + the lone reproducer */
    CHECK_EQ_I64(r.class_inputs[TRIAGE_CLASS_NEGATIVE_TOKEN_ROUNDING], 3);
    CHECK_EQ_I64(r.class_inputs[TRIAGE_CLASS_LEGACY_RAISES], 2);
    CHECK_EQ_I64(r.class_inputs[TRIAGE_CLASS_STALE_TAIL], 0);
    CHECK_EQ_I64(r.unreadable, 2); /* notes.json and cut.json */
    CHECK_STR_CONTAINS(r.last_problem, "camp/failures/");
    repro_rundir_free(&r);
    /* no baseline: nothing is known */
    CHECK(repro_rundir_load(path, NULL, &r, &err));
    CHECK_EQ_I64(repro_rundir_new(&r), 4);
    repro_rundir_free(&r);
    triage_baseline_free(b);
}

/* What one unreadable file says, alone in a plain folder. */
static void expect_unreadable(const char *name, const char *text, const char *message) {
    char rel[256], path[1024];
    repro_rundir r;
    gm_error err = {0};
    snprintf(rel, sizeof rel, "one/%s", name);
    remove_tree(fixture_path(path, sizeof path, "one"));
    write_text(rel, text);
    CHECK(repro_rundir_load(fixture_path(path, sizeof path, "one"), NULL, &r, &err));
    CHECK_EQ_I64(r.unreadable, 1);
    CHECK_EQ_I64(r.n_sigs, 0);
    CHECK_STR_CONTAINS(r.last_problem, name);
    CHECK_STR_CONTAINS(r.last_problem, message);
    repro_rundir_free(&r);
}

/* Deeper than gm_jsonscan's limit of 256. */
#define GM_DEEP 300

#define REPRO_HEAD "{\"format\": \"gmfuzz-repro-v1\", \"case\": {\"req_pool_indices\": [0]}, "

static void test_not_reproducers(void) {
    expect_unreadable("case.json", "{\"format\": \"gmfuzz-case-v1\"}",
                      "format: \"gmfuzz-case-v1\": not a reproducer");
    expect_unreadable("array.json", "[1]", "the document must be a JSON object");
    expect_unreadable("cut.json", "{\"format\": \"gmfuzz-repro-v1\", \"x\": [1, ",
                      "JSON syntax error at byte");
    expect_unreadable("trail.json", "{} {}", "expected the end of the document");
    expect_unreadable("escape.json", "{\"a\": \"\\q\"}", "expected a valid escape");
    expect_unreadable("number.json", "{\"a\": 01}", "expected ',' or '}'");
    expect_unreadable("nosig.json", REPRO_HEAD "\"x\": 1}", "signature: missing");
    expect_unreadable("badsig.json", REPRO_HEAD "\"signature\": \"decode|stale|-\"}",
                      "signature: \"decode|stale|-\" is not MODE|CLASS+...|BUFFER+... with "
                      "known names: class \"stale\" is unknown");
    expect_unreadable("twice.json",
                      REPRO_HEAD "\"signature\": \"decode|-|-\", \"signature\": \"decode|-|-\"}",
                      "signature: given twice");
    expect_unreadable("nocase.json", "{\"format\": \"gmfuzz-repro-v1\", \"signature\": "
                                     "\"decode|-|-\"}",
                      "case: missing");
    expect_unreadable("found.json",
                      REPRO_HEAD "\"signature\": \"decode|-|-\", \"found\": {\"at\": 5}}",
                      "found.at: expected an ISO-8601 time, found a number");
    expect_unreadable("diff2.json",
                      REPRO_HEAD "\"signature\": \"decode|-|-\", \"first_difference\": "
                                 "{\"buffer\": \"page_table\", \"index\": [0, -1]}}",
                      "first_difference.index: [1]:");
}

/* Nesting past the scanner's limit is refused, not recursed into. */
static void test_deep_nesting(void) {
    char text[1200];
    size_t n = 0;
    n += (size_t)snprintf(text, sizeof text, "{\"a\": ");
    for (int k = 0; k < GM_DEEP; k++) {
        text[n++] = '[';
    }
    for (int k = 0; k < GM_DEEP; k++) {
        text[n++] = ']';
    }
    snprintf(text + n, sizeof text - n, "}");
    expect_unreadable("deep.json", text, "expected less nesting");
}

static void test_plain_folder(void) {
    char path[1024];
    repro_rundir r;
    gm_error err = {0};
    remove_tree(fixture_path(path, sizeof path, "plain"));
    write_repro("plain/a/x.json", SIG_NTR, 2, "2026-11-29T13:00:00Z", 5, true);
    write_repro("plain/b/c/y.json", SIG_NTR, 1, "2026-11-29T12:00:00Z", 9, true);
    write_repro("plain/z.json", SIG_HOST, 1, "2026-11-29T12:30:00Z", 1, true);
    write_text("plain/b/case.json", "{\"format\": \"gmfuzz-case-v1\"}");
    write_text("plain/untimed.json", REPRO_HEAD "\"signature\": \"decode|stale_tail|page_table\"}");
    CHECK(repro_rundir_load(fixture_path(path, sizeof path, "plain"), NULL, &r, &err));
    CHECK(!r.is_campaign && !r.campaign.present);
    CHECK_EQ_I64(r.n_samples, 0);
    CHECK_EQ_I64(r.n_sigs, 3);
    CHECK_EQ_I64(r.inputs, 4);
    CHECK_EQ_I64(r.unreadable, 1);
    CHECK_STR_CONTAINS(r.last_problem, "plain/b/case.json: format:");
    if (r.n_sigs == 3) {
        const repro_rundir_signature *a = &r.sigs[0];
        CHECK(strcmp(a->finding.signature, SIG_NTR) == 0);
        CHECK_EQ_I64(a->count, 2);
        CHECK(strcmp(a->first_seen, "2026-11-29T12:00:00Z") == 0);
        CHECK(strcmp(a->last_seen, "2026-11-29T13:00:00Z") == 0);
        CHECK_EQ_I64(a->first_execs, 9);
        CHECK(a->repro == NULL && ends_with(a->smallest, "plain/b/c/y.json")); /* bs 1 < bs 2 */
        CHECK(strcmp(r.sigs[1].finding.signature, SIG_HOST) == 0);
        /* no "found": never timed, so last */
        const repro_rundir_signature *untimed = &r.sigs[2];
        CHECK(strcmp(untimed->finding.signature, "decode|stale_tail|page_table") == 0);
        CHECK(untimed->first_seen[0] == '\0' && untimed->last_seen[0] == '\0');
        CHECK_EQ_I64(untimed->smallest_bs, 1);
        CHECK(!untimed->first_difference.present);
    }
    repro_rundir_free(&r);
}

/* A run folder whose campaign.json or stats.jsonl is `text`: an error
 * naming the file and the field or line. */
static void expect_bad_folder(const char *name, const char *file, const char *text,
                              const char *message) {
    char rel[256], path[1024];
    repro_rundir r;
    gm_error err = {0};
    snprintf(rel, sizeof rel, "%s/%s", name, file);
    remove_tree(fixture_path(path, sizeof path, name));
    write_text(rel, text);
    snprintf(rel, sizeof rel, "%s/failures/x.json", name);
    write_repro(rel, SIG_NTR, 1, "2026-11-29T12:00:00Z", 1, false);
    CHECK(!repro_rundir_load(fixture_path(path, sizeof path, name), NULL, &r, &err));
    CHECK_EQ_I64(err.code, GM_ERR_FORMAT);
    snprintf(rel, sizeof rel, "%s/%s: ", name, file);
    CHECK_STR_CONTAINS(err.msg, rel);
    CHECK_STR_CONTAINS(err.msg, message);
    CHECK(r.sigs == NULL && r.path == NULL);
}

static void test_bad_campaign_files(void) {
    expect_bad_folder("bad-jobs", "campaign.json",
                      "{\"format\": \"gmfuzz-campaign-v1\", \"jobs\": \"two\"}", "jobs: ");
    expect_bad_folder("bad-flag", "campaign.json",
                      "{\"format\": \"gmfuzz-campaign-v1\", \"interrupted\": 1}",
                      "interrupted: expected true or false, found a number");
    expect_bad_folder("bad-engine", "campaign.json",
                      "{\"format\": \"gmfuzz-campaign-v1\", \"engine\": \"a-very-long-engine\"}",
                      "engine: longer than 15 bytes");
    expect_bad_folder("bad-format", "campaign.json", "{\"format\": \"gmfuzz-repro-v1\"}",
                      "format: expected \"gmfuzz-campaign-v1\", found \"gmfuzz-repro-v1\"");
    expect_bad_folder("bad-json", "campaign.json", "{\"format\": ", "not valid JSON");
    expect_bad_folder("bad-execs", "stats.jsonl",
                      SAMPLE("1", "5") "\n{\"t\": 2, \"exec_per_sec\": 1}\n",
                      "stats.jsonl: line 2: execs: missing");
    expect_bad_folder("bad-line", "stats.jsonl", SAMPLE("1", "5") "\n\n[1, 2\n" SAMPLE("3", "6"),
                      "stats.jsonl: line 3: not valid JSON");
    expect_bad_folder("bad-t", "stats.jsonl", "{\"t\": -1}\n", "line 1: t: expected seconds");
    expect_bad_folder("bad-count", "stats.jsonl", SAMPLE("1", "1.5") "\n",
                      "line 1: execs: 1.5 is not an integer");
}

/* A merged folder's record (gmfuzz merge): its sources and how the corpus
 * was merged are read; a bad entry is an error naming it and its key. */
static void test_merged_campaign(void) {
    char path[1024];
    repro_rundir r;
    gm_error err = {0};
    remove_tree(fixture_path(path, sizeof path, "merged"));
    write_text("merged/campaign.json",
               "{\"format\": \"gmfuzz-campaign-v1\", \"merged\": true, \"host\": \"m\", "
               "\"corpus_merge\": {\"method\": \"union\", \"note\": \"--union given\"}, "
               "\"sources\": [{\"path\": \"r1\", \"host\": \"gpu-1\", \"execs\": 12, "
               "\"elapsed_s\": 3.5, \"signatures\": 4, \"buckets\": 2, \"exit_code\": 1}, "
               "{\"path\": \"r2\", \"host\": null, \"exit_code\": null}]}");
    write_repro("merged/failures/x.json", SIG_NTR, 1, "2026-11-29T12:00:00Z", 1, false);
    CHECK(repro_rundir_load(path, NULL, &r, &err));
    CHECK_EQ_I64(r.campaign.n_sources, 2);
    CHECK(strcmp(r.campaign.host, "m") == 0 && strcmp(r.campaign.corpus_merge, "union") == 0);
    CHECK(strcmp(r.campaign.corpus_merge_note, "--union given") == 0);
    const repro_rundir_source *a = &r.campaign.sources[0], *b = &r.campaign.sources[1];
    CHECK(strcmp(a->path, "r1") == 0 && strcmp(a->host, "gpu-1") == 0 && a->execs == 12);
    CHECK(a->signatures == 4 && a->buckets == 2 && a->exit_code == 1 && a->elapsed_s == 3.5);
    CHECK(strcmp(b->path, "r2") == 0 && b->host[0] == '\0' && b->exit_code == -1);
    repro_rundir_free(&r);
    expect_bad_folder("bad-sources", "campaign.json",
                      "{\"format\": \"gmfuzz-campaign-v1\", \"sources\": {}}",
                      "sources: expected a list");
    expect_bad_folder("bad-source", "campaign.json",
                      "{\"format\": \"gmfuzz-campaign-v1\", \"sources\": [{}, "
                      "{\"execs\": -1}]}",
                      "sources[1]: execs: ");
    expect_bad_folder("bad-corpus-merge", "campaign.json",
                      "{\"format\": \"gmfuzz-campaign-v1\", \"corpus_merge\": {\"method\": 7}}",
                      "corpus_merge: method: expected a string");
}

static void test_missing_folder(void) {
    char path[1024];
    repro_rundir r;
    gm_error err = {0};
    CHECK(!repro_rundir_load(fixture_path(path, sizeof path, "no-such-folder"), NULL, &r, &err));
    CHECK_EQ_I64(err.code, GM_ERR_IO);
    CHECK_STR_CONTAINS(err.msg, "no-such-folder: no such folder");
    write_text("a-file", "x");
    CHECK(!repro_rundir_load(fixture_path(path, sizeof path, "a-file"), NULL, &r, &err));
    CHECK_STR_CONTAINS(err.msg, "a-file: not a folder");
}

static void test_empty_run(void) {
    char path[1024];
    repro_rundir r;
    gm_error err = {0};
    remove_tree(fixture_path(path, sizeof path, "empty"));
    CHECK(gm_file_make_dirs(fixture_path(path, sizeof path, "empty/failures"), &err));
    CHECK(repro_rundir_load(fixture_path(path, sizeof path, "empty"), NULL, &r, &err));
    CHECK(r.is_campaign && !r.campaign.present);
    CHECK_EQ_I64(r.campaign.exit_code, -1);
    CHECK(r.n_sigs == 0 && r.inputs == 0 && r.unreadable == 0 && repro_rundir_new(&r) == 0);
    repro_rundir_free(&r);
}

/* One signature whose files fall in two buckets (on the GPU, reads through
 * a dropped guard see other garbage in every run): listed once per bucket,
 * each with its own files, as the campaign's summary lists them
 * (campaign_failures.h); the reports read what this gives. Here the second
 * bucket is the stale one: a file that claims the signature its outputs do
 * not give. */
static void test_signature_in_two_buckets(void) {
    char path[1024];
    repro_rundir r;
    gm_error err = {0};
    remove_tree(fixture_path(path, sizeof path, "split"));
    write_repro("split/failures/f-1.json", SIG_NTR, 2, "2026-11-29T12:00:01Z", 10, false);
    write_repro("split/failures/f-2.json", SIG_NTR, 3, "2026-11-29T12:00:04Z", 40, false);
    write_repro_as("split/failures/f-3.json", SIG_HOST, 1, "2026-11-29T12:00:02Z", 20, false,
                   false, SIG_NTR);
    CHECK(repro_rundir_load(fixture_path(path, sizeof path, "split"), NULL, &r, &err));
    CHECK_EQ_I64(r.n_sigs, 2);
    CHECK_EQ_I64(r.n_buckets, 2);
    CHECK_EQ_I64(r.inputs, 3);
    for (size_t i = 0; i < r.n_sigs && r.n_sigs == 2; i++) {
        const repro_rundir_signature *s = &r.sigs[i];
        bool stale = strcmp(r.buckets[s->bucket].key, REPRO_CHECK_STALE_BUCKET) == 0;
        CHECK(strcmp(s->finding.signature, SIG_NTR) == 0);
        CHECK(strcmp(s->bucket_key, r.buckets[s->bucket].key) == 0);
        CHECK((s->stale != NULL) == stale);
        CHECK_EQ_I64(s->count, stale ? 1 : 2);
        CHECK(ends_with(s->smallest, stale ? "split/failures/f-3.json" : "split/failures/f-1.json"));
        CHECK(strcmp(s->first_seen, stale ? "2026-11-29T12:00:02Z" : "2026-11-29T12:00:01Z") == 0);
    }
    repro_rundir_free(&r);
}

/* A failure file past 256 KiB is not read whole when its name's key (the
 * hash of its signature and the bucket its job computed) matches a file
 * read: it takes that file's bucket, as the campaign gives it
 * (campaign_failures.c), so that the summary and the reports count alike.
 * The large file here records outputs that would make it stale if it
 * were read whole: it is not. */
static void test_large_file_by_key(void) {
    char path[1024], rel[256];
    repro_rundir r;
    gm_error err = {0};
    remove_tree(fixture_path(path, sizeof path, "keyed"));
    write_repro("keyed/failures/failure-0000000000000000-1-10.json", SIG_NTR, 1, "2026-11-29T12:00:01Z", 10,
                false);
    CHECK(repro_rundir_load(fixture_path(path, sizeof path, "keyed"), NULL, &r, &err));
    char bucket[TRIAGE_BUCKET_MAX] = "";
    if (r.n_sigs == 1) {
        snprintf(bucket, sizeof bucket, "%s", r.sigs[0].bucket_key);
    }
    repro_rundir_free(&r);
    campaign_failures fs;
    campaign_failures_init(&fs);
    CHECK_EQ_I64(campaign_failures_scan(&fs, fixture_path(path, sizeof path, "keyed/failures"),
                                        (struct timespec){0, 0}),
                 1);
    snprintf(rel, sizeof rel, "keyed/failures/failure-%016llx-2-20.json",
             (unsigned long long)repro_failure_name_key(SIG_NTR, bucket));
    write_repro_as(rel, SIG_HOST, 30000, "2026-11-29T12:00:02Z", 20, false, false, SIG_NTR);
    struct stat st;
    CHECK(stat(fixture_path(path, sizeof path, rel), &st) == 0 && st.st_size > 256 * 1024);
    CHECK(repro_rundir_load(fixture_path(path, sizeof path, "keyed"), NULL, &r, &err));
    CHECK_EQ_I64(r.n_sigs, 1);
    if (r.n_sigs == 1) {
        CHECK(strcmp(r.sigs[0].bucket_key, bucket) == 0);
        CHECK_EQ_I64(r.sigs[0].count, 2);
        CHECK(r.sigs[0].stale == NULL);
    }
    repro_rundir_free(&r);
    /* the campaign's driver, which read the small file when it came, gives
     * it the same bucket */
    CHECK_EQ_I64(campaign_failures_scan(&fs, fixture_path(path, sizeof path, "keyed/failures"),
                                        (struct timespec){0, 0}),
                 0);
    CHECK_EQ_I64(fs.n_sigs, 1);
    if (fs.n_sigs == 1) {
        CHECK(strcmp(fs.sigs[0].bucket, bucket) == 0);
        CHECK_EQ_I64(fs.sigs[0].count, 2);
    }
    campaign_failures_free(&fs);
    /* under another name it is read whole: stale */
    char from[1024];
    snprintf(from, sizeof from, "%s", path);
    CHECK(rename(fixture_path(from, sizeof from, rel),
                 fixture_path(path, sizeof path, "keyed/failures/failure-big.json")) == 0);
    CHECK(repro_rundir_load(fixture_path(path, sizeof path, "keyed"), NULL, &r, &err));
    CHECK_EQ_I64(r.n_sigs, 2);
    CHECK_EQ_I64(repro_rundir_stale(&r), 1);
    repro_rundir_free(&r);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_rundir SCRATCH_DIR\n");
        return 2;
    }
    scratch = argv[1];
    gm_error err = {0};
    if (!gm_file_make_dirs(scratch, &err) || !harness_backend_open(HARNESS_BACKEND_CPU, &cpu, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    GM_RUN(test_campaign_folder);
    GM_RUN(test_not_reproducers);
    GM_RUN(test_deep_nesting);
    GM_RUN(test_plain_folder);
    GM_RUN(test_bad_campaign_files);
    GM_RUN(test_merged_campaign);
    GM_RUN(test_missing_folder);
    GM_RUN(test_empty_run);
    GM_RUN(test_signature_in_two_buckets);
    GM_RUN(test_large_file_by_key);
    harness_backend_close(cpu);
    GM_TEST_END();
}
