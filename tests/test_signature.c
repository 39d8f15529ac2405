/* Signatures parsed back (triage_finding_parse) and classes per element
 * (triage_classify_element):
 *   - every signature triage_finding_sign can write parses back to its mode,
 *     classes and buffers, and every signature a classification of the
 *     conformance vectors produces does;
 *   - malformed strings fail with a message naming the part;
 *   - per element, the classes of the differing elements add up to the
 *     run's classes.
 *
 *   test_signature VECTOR_DIR
 */
#include <stdio.h>
#include <string.h>

#include "triage.h"
#include "gm_json.h"
#include "harness.h"
#include "gm_test.h"

static const char *vector_dir;

/* Parses f's signature and checks that it gives f back. */
static bool round_trips(const triage_finding *f) {
    triage_finding back;
    gm_error err = {0};
    if (!triage_finding_parse(f->signature, &back, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    return back.mode == f->mode && back.classes == f->classes && back.buffers == f->buffers &&
           strcmp(back.signature, f->signature) == 0;
}

/* Every class set, each with a buffer set, in every mode. */
static void test_every_signature_round_trips(void) {
    size_t bad = 0, n = 0;
    for (int m = 0; m < GM_MODE_COUNT; m++) {
        for (unsigned classes = 0; classes < (1u << TRIAGE_CLASS_COUNT); classes++) {
            triage_finding f = {.mode = (gm_mode)m, .classes = classes,
                            .buffers = (classes * 37u + (unsigned)m) % (1u << GM_BUF_COUNT)};
            triage_finding_sign(&f);
            bad += round_trips(&f) ? 0 : 1;
            n++;
        }
    }
    CHECK_EQ_I64(bad, 0);
    CHECK_EQ_I64(n, GM_MODE_COUNT << TRIAGE_CLASS_COUNT);
    /* the longest one is whole: every class, every buffer */
    triage_finding all = {.mode = GM_MODE_DRAFT_EXTEND_V2, .classes = (1u << TRIAGE_CLASS_COUNT) - 1,
                      .buffers = (1u << GM_BUF_COUNT) - 1};
    triage_finding_sign(&all);
    CHECK(round_trips(&all));
    CHECK_STR_CONTAINS(all.signature, "+unclassified|cache_seqlens+");
}

static void test_statuses(void) {
    triage_finding f;
    gm_error err = {0};
    CHECK(triage_finding_parse("decode|legacy_raises|-", &f, &err));
    CHECK_EQ_I64(f.status, GM_STATUS_REFERENCE_ERROR);
    CHECK(triage_finding_parse("draft_decode|fused_out_of_bounds|-", &f, &err));
    CHECK_EQ_I64(f.status, GM_STATUS_FUSED_OUT_OF_BOUNDS);
    CHECK(triage_finding_parse("target_verify|stale_tail+sentinel_wrap|page_table+swa_page_table",
                               &f, &err));
    CHECK_EQ_I64(f.status, GM_STATUS_MISMATCH);
    CHECK_EQ_I64(f.mode, GM_MODE_TARGET_VERIFY);
    CHECK_EQ_I64(f.classes, (1u << TRIAGE_CLASS_STALE_TAIL) | (1u << TRIAGE_CLASS_SENTINEL_WRAP));
    CHECK_EQ_I64(f.buffers, (1u << GM_BUF_PAGE_TABLE) | (1u << GM_BUF_SWA_PAGE_TABLE));
}

static void expect_malformed(const char *s, const char *message) {
    triage_finding f;
    gm_error err = {0};
    CHECK(!triage_finding_parse(s, &f, &err));
    CHECK_EQ_I64(err.code, GM_ERR_FORMAT);
    CHECK_STR_CONTAINS(err.msg, message);
}

static void test_malformed(void) {
    expect_malformed("", "\"\" is not MODE|CLASS+...|BUFFER+...: it has 1 part, not 3");
    expect_malformed("decode|stale_tail", "it has 2 parts, not 3");
    expect_malformed("decode|-|-|-", "\"decode|-|-|-\" is not MODE|CLASS+...|BUFFER+...: it has "
                                     "4 parts, not 3");
    expect_malformed("prefill|-|-", "with known names: mode \"prefill\" is unknown");
    expect_malformed("decode|stale|page_table", "class \"stale\" is unknown");
    expect_malformed("decode|stale_tail+|page_table", "class \"\" is unknown");
    expect_malformed("decode||page_table", "class \"\" is unknown");
    expect_malformed("decode|stale_tail+-|page_table", "class \"-\" is unknown");
    expect_malformed("decode|stale_tail|pages", "buffer \"pages\" is unknown");
    expect_malformed("decode|stale_tail|Page_table", "buffer \"Page_table\" is unknown");
    expect_malformed("decode|negative_token_rounding+stale_tail|page_table",
                     "is not canonical; write it as "
                     "\"decode|stale_tail+negative_token_rounding|page_table\"");
    expect_malformed("decode|stale_tail+stale_tail|page_table",
                     "write it as \"decode|stale_tail|page_table\"");
    expect_malformed("decode|stale_tail|swa_page_table+page_table",
                     "write it as \"decode|stale_tail|page_table+swa_page_table\"");
    expect_malformed("decode|stale\ttail|-", "class \"stale\\x09tail\" is unknown");
    char longer[TRIAGE_SIGNATURE_MAX + 8];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    expect_malformed(longer, "is not a signature: longer than 511 bytes");
}

/* Which elements the verdict compared: all (strict) or the live ones. */
static bool compared(const gm_case *c, const harness_run_result *r, gm_buf_id id, size_t flat) {
    return r->verdict.compare == GM_COMPARE_STRICT || gm_oracle_is_live(c, &r->reference, id, flat);
}

/* The union of triage_classify_element over the compared differing elements. */
static unsigned element_classes(const gm_case *c, const harness_run_result *r) {
    unsigned classes = 0;
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        const gm_buffer *a = &r->reference.buf[id], *b = &r->fused.buf[id];
        if (!a->present || !b->present) {
            continue;
        }
        for (size_t k = 0; k < gm_buffer_count(a); k++) {
            if (gm_buffer_get(a, k) != gm_buffer_get(b, k) && compared(c, r, (gm_buf_id)id, k)) {
                classes |= 1u << triage_classify_element(c, r, (gm_buf_id)id, k);
            }
        }
    }
    return classes;
}

/* One vector at one level: its signature round-trips, and the classes of
 * its elements are the run's. */
static void vector_check(harness_backend *cpu, const gm_doc *doc, gm_compare level, size_t *bad,
                         size_t *findings) {
    harness_run_result r;
    gm_error err = {0};
    triage_finding f;
    harness_run_result_init(&r);
    if (!harness_run_case(cpu, &doc->c, level, &r, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        (*bad)++;
        harness_run_result_free(&r);
        return;
    }
    triage_classify(&doc->c, &r, &f);
    bool ok = round_trips(&f);
    if (r.verdict.status == GM_STATUS_MISMATCH) {
        ok = ok && element_classes(&doc->c, &r) == f.classes;
    } else if (r.verdict.status != GM_STATUS_MATCH) {
        ok = ok && f.classes == 1u << triage_classify_element(&doc->c, &r, GM_BUF_PAGE_TABLE, 0);
    }
    *findings += r.verdict.status != GM_STATUS_MATCH;
    if (!ok) {
        fprintf(stderr, "%s: %s\n", doc->c.name ? doc->c.name : "?", f.signature);
        (*bad)++;
    }
    harness_run_result_free(&r);
}

static void test_vectors(void) {
    harness_paths files;
    harness_paths_init(&files);
    gm_error err = {0};
    harness_backend *cpu = NULL;
    gm_limits lim;
    gm_limits_default(&lim);
    CHECK(harness_paths_add(&files, vector_dir, &err) && harness_backend_open(HARNESS_BACKEND_CPU, &cpu, &err));
    size_t bad = 0, findings = 0;
    for (size_t i = 0; cpu != NULL && i < files.count; i++) {
        gm_doc doc;
        gm_doc_init(&doc);
        CHECK(gm_json_read_file(files.items[i], &lim, &doc, &err));
        vector_check(cpu, &doc, GM_COMPARE_LIVE, &bad, &findings);
        vector_check(cpu, &doc, GM_COMPARE_STRICT, &bad, &findings);
        gm_doc_free(&doc);
    }
    CHECK(files.count >= 250);
    CHECK(findings > 100); /* the vectors are mostly findings */
    CHECK_EQ_I64(bad, 0);
    harness_backend_close(cpu);
    harness_paths_free(&files);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_signature VECTOR_DIR\n");
        return 2;
    }
    vector_dir = argv[1];
    GM_RUN(test_every_signature_round_trips);
    GM_RUN(test_statuses);
    GM_RUN(test_malformed);
    GM_RUN(test_vectors);
    GM_TEST_END();
}
