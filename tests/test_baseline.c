/* The baseline: the shipped corpus/known.json, what is known and what is
 * not, and one clear message per malformed baseline.
 *
 *   test_baseline KNOWN_JSON SCRATCH_DIR
 */
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "triage.h"
#include "gm_test.h"

static const char *known_path;
static const char *scratch;

static triage_finding finding(gm_status status, unsigned classes, unsigned buffers) {
    triage_finding f = {.status = status, .mode = GM_MODE_DECODE, .classes = classes,
                    .buffers = buffers};
    triage_finding_sign(&f);
    return f;
}

#define BIT(k) (1u << (k))

static void test_shipped_baseline(void) {
    triage_baseline *b = NULL;
    gm_error err = {0};
    CHECK(triage_baseline_load(known_path, &b, &err));
    if (b == NULL) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    for (int k = 0; k < TRIAGE_CLASS_TARGET_RAISED; k++) {
        triage_finding f = finding(GM_STATUS_MISMATCH, BIT(k), BIT(GM_BUF_PAGE_TABLE));
        CHECK(triage_baseline_is_known(b, &f));
    }
    /* What an external target does wrong, and a drift of the C reference
     * from PyTorch, are findings the shipped baseline never accepts. */
    for (int k = TRIAGE_CLASS_TARGET_RAISED; k < TRIAGE_CLASS_UNCLASSIFIED; k++) {
        triage_finding f = finding(GM_STATUS_TARGET_FAILED, BIT(k), 0);
        CHECK(!triage_baseline_is_known(b, &f));
    }
    triage_finding several = finding(GM_STATUS_MISMATCH,
                                     BIT(TRIAGE_CLASS_STALE_TAIL) | BIT(TRIAGE_CLASS_SENTINEL_WRAP),
                                     BIT(GM_BUF_PAGE_TABLE) | BIT(GM_BUF_SWA_PAGE_TABLE));
    CHECK(triage_baseline_is_known(b, &several));
    triage_finding mixed = finding(GM_STATUS_MISMATCH,
                                   BIT(TRIAGE_CLASS_STALE_TAIL) | BIT(TRIAGE_CLASS_UNCLASSIFIED),
                                   BIT(GM_BUF_PAGE_TABLE));
    CHECK(!triage_baseline_is_known(b, &mixed));
    triage_finding bug = finding(GM_STATUS_FUSED_OUT_OF_BOUNDS, BIT(TRIAGE_CLASS_UNCLASSIFIED), 0);
    CHECK(!triage_baseline_is_known(b, &bug));
    triage_finding match = finding(GM_STATUS_MATCH, 0, 0);
    CHECK(!triage_baseline_is_known(b, &match));
    triage_baseline_free(b);
}

static void test_empty_baseline(void) {
    triage_baseline *b = NULL;
    gm_error err = {0};
    CHECK(triage_baseline_empty(&b, &err));
    triage_finding f = finding(GM_STATUS_MISMATCH, BIT(TRIAGE_CLASS_STALE_TAIL), BIT(GM_BUF_PAGE_TABLE));
    CHECK(!triage_baseline_is_known(b, &f));
    CHECK(!triage_baseline_is_known(NULL, &f));
    triage_baseline_free(b);
}

/* Writes `text` to SCRATCH/name and loads it. */
static bool load_text(const char *name, const char *text, triage_baseline **b, gm_error *err,
                      char *path, size_t size) {
    snprintf(path, size, "%s/%s", scratch, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f == NULL) {
        return false;
    }
    fputs(text, f);
    fclose(f);
    return triage_baseline_load(path, b, err);
}

static void test_listed_signatures(void) {
    static const char text[] =
        "{\"format\": \"gmfuzz-known-v1\",\n"
        " \"classes\": [{\"class\": \"stale_tail\", \"decision\": \"bug\",\n"
        "               \"explanation\": \"x\"},\n"
        "              {\"class\": \"legacy_raises\", \"decision\": \"accepted\",\n"
        "               \"explanation\": \"y\"}],\n"
        " \"signatures\": [{\"signature\": \"decode|unclassified|cu_seqlens_q\",\n"
        "                  \"decision\": \"wontfix\", \"explanation\": \"z\"}]}\n";
    triage_baseline *b = NULL;
    gm_error err = {0};
    char path[512];
    CHECK(load_text("listed.json", text, &b, &err, path, sizeof path));
    if (b == NULL) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    triage_finding listed = finding(GM_STATUS_MISMATCH, BIT(TRIAGE_CLASS_UNCLASSIFIED),
                                    BIT(GM_BUF_CU_SEQLENS_Q));
    CHECK(triage_baseline_is_known(b, &listed));
    triage_finding other = finding(GM_STATUS_MISMATCH, BIT(TRIAGE_CLASS_UNCLASSIFIED),
                                   BIT(GM_BUF_CU_SEQLENS_K));
    CHECK(!triage_baseline_is_known(b, &other));
    triage_finding bug_class = finding(GM_STATUS_MISMATCH, BIT(TRIAGE_CLASS_STALE_TAIL),
                                       BIT(GM_BUF_PAGE_TABLE));
    CHECK(!triage_baseline_is_known(b, &bug_class)); /* decided a bug, not accepted */
    triage_finding raises = finding(GM_STATUS_REFERENCE_ERROR, BIT(TRIAGE_CLASS_LEGACY_RAISES), 0);
    CHECK(triage_baseline_is_known(b, &raises));
    triage_finding unlisted = finding(GM_STATUS_MISMATCH, BIT(TRIAGE_CLASS_SENTINEL_WRAP),
                                      BIT(GM_BUF_SWA_PAGE_TABLE));
    CHECK(!triage_baseline_is_known(b, &unlisted));
    triage_baseline_free(b);
}

/* A malformed baseline fails with a message holding `expected`. */
static void expect_error(const char *name, const char *text, const char *expected) {
    triage_baseline *b = NULL;
    gm_error err = {0};
    char path[512];
    CHECK(!load_text(name, text, &b, &err, path, sizeof path));
    CHECK(b == NULL);
    CHECK_STR_CONTAINS(err.msg, path); /* the file is named */
    CHECK_STR_CONTAINS(err.msg, expected);
}

#define HEAD "{\"format\": \"gmfuzz-known-v1\", "
#define CLASSES(list) HEAD "\"classes\": [" list "]}"
#define SIGNATURES(list) HEAD "\"signatures\": [" list "]}"
/* A class entry: its name, then the decision and explanation as JSON values. */
#define CLASS(name, d, e) "{\"class\": \"" name "\", \"decision\": " d ", \"explanation\": " e "}"
#define ACCEPTED(name) CLASS(name, "\"accepted\"", "\"x\"")
#define SIG(s) "{\"signature\": \"" s "\", \"decision\": \"accepted\", \"explanation\": \"x\"}"

static void test_malformed_document(void) {
    expect_error("syntax.json", "{\"format\": ", "JSON syntax error");
    expect_error("array.json", "[]", "the document must be a JSON object, found an array");
    expect_error("format.json", "{\"format\": \"gmfuzz-case-v1\"}",
                 "format: expected \"gmfuzz-known-v1\", found \"gmfuzz-case-v1\"");
    expect_error("noformat.json", "{}", "format: missing");
    expect_error("classes.json", HEAD "\"classes\": {}}",
                 "classes: expected an array, found an object");
}

static void test_malformed_classes(void) {
    expect_error("entry.json", CLASSES(ACCEPTED("stale_tail") ", 3"),
                 "classes[1]: expected an object, found a number");
    expect_error("unknown.json", CLASSES(ACCEPTED("stale")),
                 "classes[0].class: unknown class \"stale\"");
    expect_error("unclassified.json", CLASSES(ACCEPTED("unclassified")),
                 "classes[0].class: unclassified differences cannot be accepted");
    expect_error("twice.json",
                 CLASSES(ACCEPTED("stale_tail") ", " CLASS("stale_tail", "\"bug\"", "\"y\"")),
                 "classes[1].class: \"stale_tail\" is listed twice");
    expect_error("decision.json", CLASSES(CLASS("stale_tail", "\"maybe\"", "\"x\"")),
                 "classes[0].decision: expected accepted, bug or wontfix, found \"maybe\"");
    expect_error("decision_type.json", CLASSES(CLASS("stale_tail", "1", "\"x\"")),
                 "classes[0].decision: expected a string, found a number");
    expect_error("explanation.json", CLASSES(CLASS("stale_tail", "\"accepted\"", "\"\"")),
                 "classes[0].explanation: is empty");
    expect_error("noexplanation.json",
                 CLASSES("{\"class\": \"stale_tail\", \"decision\": \"bug\"}"),
                 "classes[0].explanation: missing");
}

static void test_malformed_signatures(void) {
    expect_error("order.json",
                 SIGNATURES(SIG("decode|negative_token_rounding+stale_tail|page_table")),
                 "signatures[0].signature: "
                 "\"decode|negative_token_rounding+stale_tail|page_table\" is not canonical; "
                 "write it as \"decode|stale_tail+negative_token_rounding|page_table\"");
    expect_error("mode.json", SIGNATURES(SIG("prefill|stale_tail|page_table")),
                 "signatures[0].signature: \"prefill|stale_tail|page_table\" is not "
                 "MODE|CLASS+...|BUFFER+... with known names");
    expect_error("parts.json", SIGNATURES(SIG("decode|stale_tail")),
                 "signatures[0].signature: \"decode|stale_tail\" is not MODE|CLASS+...");
    expect_error("buffer.json", SIGNATURES(SIG("decode|stale_tail|pages")),
                 "is not MODE|CLASS+...|BUFFER+... with known names");
    expect_error("sigtwice.json", SIGNATURES(SIG("decode|-|-") ", " SIG("decode|-|-")),
                 "signatures[1].signature: \"decode|-|-\" is listed twice");
}

/* A bucket listed by its key covers every signature of that root cause;
 * a finding without a bucket (parsed from a signature alone) is not
 * matched by it. */
static void test_listed_buckets(void) {
    static const char text[] =
        "{\"format\": \"gmfuzz-known-v1\",\n"
        " \"buckets\": [{\"bucket\": \"cu_seqlens_k|live@rows<32|other\",\n"
        "               \"decision\": \"bug\", \"explanation\": \"issue 12\"}]}\n";
    triage_baseline *b = NULL;
    gm_error err = {0};
    char path[512];
    CHECK(load_text("buckets.json", text, &b, &err, path, sizeof path));
    if (b == NULL) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    triage_finding f = finding(GM_STATUS_MISMATCH,
                               BIT(TRIAGE_CLASS_STALE_TAIL) | BIT(TRIAGE_CLASS_UNCLASSIFIED),
                               BIT(GM_BUF_CU_SEQLENS_K) | BIT(GM_BUF_PAGE_TABLE));
    CHECK(!triage_baseline_is_known(b, &f));
    snprintf(f.bucket, sizeof f.bucket, "cu_seqlens_k|live@rows<32|other");
    triage_baseline_entry e;
    triage_baseline_lookup(b, &f, &e);
    CHECK(e.known && e.by_bucket && !e.by_signature && e.decision == TRIAGE_DECISION_BUG);
    CHECK(e.explanation != NULL && strcmp(e.explanation, "issue 12") == 0);
    snprintf(f.bucket, sizeof f.bucket, "cu_seqlens_k|live@rows<256|other");
    CHECK(!triage_baseline_is_known(b, &f));
    triage_baseline_free(b);
}

/* Keys written before issue 23 still cover what they covered: a target
 * class's bare key all its buckets, an absolute scan range the relative
 * keys whose first row lies in it (not @last, which names no row). */
static void test_old_bucket_keys(void) {
    static const char text[] =
        "{\"format\": \"gmfuzz-known-v1\",\n"
        " \"buckets\": [{\"bucket\": \"target_deviates|-|-\", \"decision\": \"wontfix\",\n"
        "               \"explanation\": \"a vendor's kernel\"},\n"
        "              {\"bucket\": \"cu_seqlens_k|live@rows<256|value\",\n"
        "               \"decision\": \"bug\", \"explanation\": \"issue 12\"}]}\n";
    triage_baseline *b = NULL;
    gm_error err = {0};
    char path[512];
    CHECK(load_text("old_buckets.json", text, &b, &err, path, sizeof path));
    if (b == NULL) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    triage_finding f = finding(GM_STATUS_TARGET_FAILED, BIT(TRIAGE_CLASS_TARGET_DEVIATES), 0);
    triage_baseline_entry e;
    snprintf(f.bucket, sizeof f.bucket, "target_deviates:page_table|live|off_by_one=legacy");
    triage_baseline_lookup(b, &f, &e);
    CHECK(e.known && e.by_bucket && e.decision == TRIAGE_DECISION_WONTFIX);
    f = finding(GM_STATUS_MISMATCH, BIT(TRIAGE_CLASS_UNCLASSIFIED), BIT(GM_BUF_CU_SEQLENS_K));
    snprintf(f.bucket, sizeof f.bucket, "cu_seqlens_k|live@edge32|value");
    triage_baseline_lookup(b, &f, &e);
    CHECK(e.known && e.by_bucket && e.decision == TRIAGE_DECISION_BUG);
    snprintf(f.bucket, sizeof f.bucket, "cu_seqlens_k|live@last|value");
    CHECK(!triage_baseline_is_known(b, &f));
    triage_baseline_free(b);
}

#define BUCKET(k) "{\"bucket\": \"" k "\", \"decision\": \"accepted\", \"explanation\": \"x\"}"

static void test_malformed_buckets(void) {
    expect_error("bparts.json", HEAD "\"buckets\": [" BUCKET("page_table|live") "]}",
                 "buckets[0].bucket: \"page_table|live\" is not WHAT|WHERE|HOW");
    expect_error("bempty.json", HEAD "\"buckets\": [" BUCKET("page_table||other") "]}",
                 "buckets[0].bucket: \"page_table||other\" is not WHAT|WHERE|HOW");
    expect_error("btwice.json",
                 HEAD "\"buckets\": [" BUCKET("a|b|c") ", " BUCKET("a|b|c") "]}",
                 "buckets[1].bucket: \"a|b|c\" is listed twice");
    expect_error("btype.json", HEAD "\"buckets\": {}}", "buckets: expected an array");
}

static void test_missing_file(void) {
    triage_baseline *b = NULL;
    gm_error err = {0};
    char path[512];
    snprintf(path, sizeof path, "%s/no-such-baseline.json", scratch);
    CHECK(!triage_baseline_load(path, &b, &err));
    CHECK_STR_CONTAINS(err.msg, "no-such-baseline.json: cannot open");
    CHECK_EQ_I64(err.code, GM_ERR_IO);
}

/* The reader sizes its buffer by the file: a file over the 16 MiB limit is
 * refused by its size (a sparse one: nothing is written), a folder as not a
 * regular file. */
static void test_file_limits(void) {
    triage_baseline *b = NULL;
    gm_error err = {0};
    char path[512];
    snprintf(path, sizeof path, "%s/huge-baseline.json", scratch);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    CHECK(ftruncate(fileno(f), ((off_t)16 << 20) + 1) == 0);
    fclose(f);
    CHECK(!triage_baseline_load(path, &b, &err));
    CHECK_STR_CONTAINS(err.msg, "huge-baseline.json: 16777217 bytes, over the limit of 16777216");
    CHECK_EQ_I64(err.code, GM_ERR_LIMIT);
    remove(path);
    err = (gm_error){0};
    CHECK(!triage_baseline_load(scratch, &b, &err));
    CHECK_STR_CONTAINS(err.msg, "cannot read: not a regular file");
    CHECK_EQ_I64(err.code, GM_ERR_IO);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: test_baseline KNOWN_JSON SCRATCH_DIR\n");
        return 2;
    }
    known_path = argv[1];
    scratch = argv[2];
    GM_RUN(test_shipped_baseline);
    GM_RUN(test_empty_baseline);
    GM_RUN(test_listed_buckets);
    GM_RUN(test_old_bucket_keys);
    GM_RUN(test_malformed_buckets);
    GM_RUN(test_listed_signatures);
    GM_RUN(test_malformed_document);
    GM_RUN(test_malformed_classes);
    GM_RUN(test_malformed_signatures);
    GM_RUN(test_missing_file);
    GM_RUN(test_file_limits);
    GM_TEST_END();
}
