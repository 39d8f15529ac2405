/* Tests of the JSON documents: round trips of cases, outputs, vectors and
 * repros built in C; the exact text of verdicts and outputs; reading the
 * valid examples in DATA/valid; reading every conformance vector.
 *
 * usage: test_json DATA_DIR [VECTORS_DIR]
 * Files are written only in the current directory (the build tree).
 */
#define _POSIX_C_SOURCE 200809L /* opendir */

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_json.h"
#include "gm_test.h"

static const char *data_dir;
static const char *vectors_dir;

/* ------------------------------------------------------------------ */
/* Building cases                                                      */

static void *copy_of(const void *src, size_t bytes) {
    void *p = malloc(bytes + 1);
    if (p == NULL) {
        abort(); /* test program: no way to go on */
    }
    memcpy(p, src, bytes);
    return p;
}

#define COPY_ARRAY(a) copy_of((a), sizeof(a))

/* decode, bs 2, no SWA: the smallest interesting case. */
static void build_decode(gm_case *c) {
    static const int32_t rtt[3][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {-1, 9, 10, 11}};
    static const int64_t rpi[] = {2, 0}, seq[] = {3, 1};
    gm_case_init(c);
    c->mode = GM_MODE_DECODE;
    c->page_size = 2;
    c->max_context_len = 4;
    c->pool = 3;
    c->width = 4;
    c->req_to_token = COPY_ARRAY(rtt);
    c->bs = 2;
    c->req_pool_indices = COPY_ARRAY(rpi);
    c->seq_lens = COPY_ARRAY(seq);
}

/* Every optional part present, values beyond 2^53 and int32 extremes. */
static void build_full(gm_case *c) {
    static const int64_t mapping[] = {5, ((int64_t)1 << 40) + 3, INT64_MAX, INT64_MIN, -1};
    static const int64_t out_loc[] = {3, -1, ((int64_t)1 << 53) + 1};
    static const int64_t seq_cpu[] = {0, 9007199254740993};
    static const int32_t qlens[] = {INT32_MAX, INT32_MIN};
    static const int64_t pt_init[] = {1, 2, 3, 4};
    build_decode(c);
    c->name = copy_of("full \"case\"", 12);
    c->mode = GM_MODE_DRAFT_EXTEND;
    c->seq_lens_cpu = COPY_ARRAY(seq_cpu);
    c->speculative_step_id = 3;
    c->num_draft_tokens = -4;
    c->q_stride = 7;
    c->qlens = COPY_ARRAY(qlens);
    c->has_max_seq_pages = true;
    c->max_seq_pages = 0;
    c->has_swa = true;
    c->swa.mapping = COPY_ARRAY(mapping);
    c->swa.mapping_len = 5;
    c->swa.page_table = true;
    c->swa.out_cache_loc = COPY_ARRAY(out_loc);
    c->swa.n_out = 3;
    c->swa.has_out_len = true;
    c->swa.out_len = 2;
    c->init[GM_BUF_PAGE_TABLE] = (gm_init){GM_INIT_ARRAY, 0, COPY_ARRAY(pt_init), 4};
    c->init[GM_BUF_CU_SEQLENS_Q] = (gm_init){GM_INIT_FILL, -7, NULL, 0};
    c->init[GM_BUF_SWA_OUT_CACHE_LOC] = (gm_init){GM_INIT_FILL, INT64_MIN, NULL, 0};
    int64_t swa_pt[] = {-1, 0, INT32_MIN, INT32_MAX};
    c->init[GM_BUF_SWA_PAGE_TABLE] = (gm_init){GM_INIT_ARRAY, 0, COPY_ARRAY(swa_pt), 4};
}

/* An empty batch with an SWA pool whose out_cache_loc is empty, not absent. */
static void build_empty_batch(gm_case *c) {
    static const int64_t mapping[] = {-1};
    build_decode(c);
    free(c->req_pool_indices);
    free(c->seq_lens);
    c->bs = 0;
    c->req_pool_indices = copy_of(mapping, 0);
    c->seq_lens = copy_of(mapping, 0);
    c->mode = GM_MODE_TARGET_VERIFY;
    c->num_draft_tokens = 0;
    c->has_swa = true;
    c->swa.mapping = COPY_ARRAY(mapping);
    c->swa.mapping_len = 1;
    c->swa.page_table = false;
    c->swa.out_cache_loc = copy_of(mapping, 0);
    c->swa.n_out = 0;
}

/* ------------------------------------------------------------------ */
/* Comparing                                                           */

static bool same_i64(const int64_t *a, const int64_t *b, size_t n) {
    if (a == NULL || b == NULL) {
        return a == b;
    }
    return n == 0 || memcmp(a, b, n * sizeof *a) == 0;
}

static bool same_i32(const int32_t *a, const int32_t *b, size_t n) {
    if (a == NULL || b == NULL) {
        return a == b;
    }
    return n == 0 || memcmp(a, b, n * sizeof *a) == 0;
}

static bool same_string(const char *a, const char *b) {
    return (a == NULL || b == NULL) ? a == b : strcmp(a, b) == 0;
}

static void check_swa_equal(const gm_swa *a, const gm_swa *b) {
    CHECK_EQ_I64(a->mapping_len, b->mapping_len);
    CHECK(same_i64(a->mapping, b->mapping, a->mapping_len));
    CHECK(a->page_table == b->page_table);
    CHECK_EQ_I64(a->n_out, b->n_out);
    CHECK(same_i64(a->out_cache_loc, b->out_cache_loc, a->n_out));
    CHECK(a->has_out_len == b->has_out_len);
    CHECK_EQ_I64(a->out_len, b->out_len);
}

static void check_init_equal(const gm_init *a, const gm_init *b) {
    CHECK_EQ_I64(a->kind, b->kind);
    CHECK_EQ_I64(a->fill, b->fill);
    CHECK_EQ_I64(a->len, b->len);
    CHECK(same_i64(a->values, b->values, a->len));
}

static void check_case_equal(const gm_case *a, const gm_case *b) {
    CHECK(same_string(a->name, b->name));
    CHECK_EQ_I64(a->mode, b->mode);
    CHECK_EQ_I64(a->page_size, b->page_size);
    CHECK_EQ_I64(a->max_context_len, b->max_context_len);
    CHECK_EQ_I64(a->pool, b->pool);
    CHECK_EQ_I64(a->width, b->width);
    CHECK(same_i32(a->req_to_token, b->req_to_token, a->pool * a->width));
    CHECK_EQ_I64(a->bs, b->bs);
    CHECK(same_i64(a->req_pool_indices, b->req_pool_indices, a->bs));
    CHECK(same_i64(a->seq_lens, b->seq_lens, a->bs));
    CHECK(same_i64(a->seq_lens_cpu, b->seq_lens_cpu, a->bs));
    CHECK_EQ_I64(a->speculative_step_id, b->speculative_step_id);
    CHECK_EQ_I64(a->num_draft_tokens, b->num_draft_tokens);
    CHECK(same_i32(a->qlens, b->qlens, a->bs));
    CHECK_EQ_I64(a->q_stride, b->q_stride);
    CHECK(a->has_max_seq_pages == b->has_max_seq_pages);
    CHECK_EQ_I64(a->max_seq_pages, b->max_seq_pages);
    CHECK(a->has_swa == b->has_swa);
    if (a->has_swa && b->has_swa) {
        check_swa_equal(&a->swa, &b->swa);
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        check_init_equal(&a->init[id], &b->init[id]);
    }
}

static void check_outputs_equal(const gm_outputs *a, const gm_outputs *b) {
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        const gm_buffer *x = &a->buf[id], *y = &b->buf[id];
        CHECK(x->present == y->present);
        if (!x->present || !y->present) {
            continue;
        }
        CHECK_EQ_I64(x->rank, y->rank);
        CHECK_EQ_I64(x->dims[0], y->dims[0]);
        CHECK_EQ_I64(x->dims[1], y->dims[1]);
        CHECK(x->is_int64 == y->is_int64);
        size_t n = gm_buffer_count(x);
        CHECK(n == 0 || memcmp(x->data, y->data, n * (x->is_int64 ? 8 : 4)) == 0);
    }
    CHECK(same_string(a->error, b->error));
}

static void check_repro_equal(const gm_repro *a, const gm_repro *b) {
    CHECK(same_string(a->backend, b->backend));
    CHECK(gm_verdict_equal(&a->verdict, &b->verdict));
    CHECK_EQ_I64(a->verdict.n_differences, b->verdict.n_differences);
    CHECK_EQ_I64(a->n_classes, b->n_classes);
    for (size_t i = 0; i < a->n_classes && i < b->n_classes; i++) {
        CHECK(same_string(a->classes[i], b->classes[i]));
    }
    CHECK(same_string(a->signature, b->signature));
    CHECK(a->has_found == b->has_found);
    CHECK(same_string(a->found_by, b->found_by));
    CHECK(same_string(a->found_at, b->found_at));
    CHECK(a->found_execs == b->found_execs);
    CHECK(a->minimized == b->minimized);
    CHECK(same_string(a->tool_version, b->tool_version));
}

/* ------------------------------------------------------------------ */
/* Text helpers                                                        */

/* Prints `root` (consumed) and parses it back into `doc`. */
static bool reparse(cJSON *root, gm_doc *doc) {
    gm_error err;
    gm_error_clear(&err);
    char *text = root != NULL ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    CHECK(text != NULL);
    bool ok = text != NULL && gm_json_parse(text, strlen(text), "reparse", NULL, doc, &err);
    if (!ok) {
        fprintf(stderr, "  reparse failed: %s\n", err.msg);
    }
    cJSON_free(text);
    return ok;
}

static void expect_text(cJSON *root, const char *expected) {
    char *text = root != NULL ? cJSON_PrintUnformatted(root) : NULL;
    CHECK(text != NULL && strcmp(text, expected) == 0);
    if (text != NULL && strcmp(text, expected) != 0) {
        fprintf(stderr, "  got      %s\n  expected %s\n", text, expected);
    }
    cJSON_free(text);
    cJSON_Delete(root);
}

static bool parse_text(const char *text, gm_doc *doc, gm_error *err) {
    gm_error_clear(err);
    return gm_json_parse(text, strlen(text), "t.json", NULL, doc, err);
}

/* ------------------------------------------------------------------ */
/* Round trips                                                         */

static void round_trip_case(void (*build)(gm_case *)) {
    gm_case c;
    gm_doc doc;
    build(&c);
    gm_error err;
    CHECK(gm_case_check(&c, &err));
    CHECK(reparse(gm_json_case(&c), &doc));
    CHECK_EQ_I64(doc.kind, GM_DOC_CASE);
    check_case_equal(&c, &doc.c);
    gm_doc_free(&doc);
    gm_case_free(&c);
}

static void test_case_round_trip(void) {
    round_trip_case(build_decode);
    round_trip_case(build_full);
    round_trip_case(build_empty_batch);
}

/* Outputs as a run leaves them: prior contents, a few writes, an error. */
static void build_outputs(const gm_case *c, gm_outputs *o, const char *error) {
    gm_error err;
    gm_outputs_init(o);
    CHECK(gm_outputs_prepare(o, c, &err));
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        gm_buffer *b = &o->buf[id];
        for (size_t k = 0; k < gm_buffer_count(b); k++) {
            gm_buffer_set(b, k, b->is_int64 ? INT64_MIN + (int64_t)k : (int64_t)k * 1000 - 3);
        }
    }
    if (error != NULL) {
        gm_outputs_set_error(o, "%s", error);
    }
}

static void test_vector_round_trip(void) {
    gm_case c;
    gm_outputs legacy, fused;
    gm_doc doc;
    build_full(&c);
    build_outputs(&c, &legacy, "index_out_of_range: step 5: \"quoted\"");
    build_outputs(&c, &fused, NULL);
    CHECK(reparse(gm_json_vector(&c, &legacy, &fused), &doc));
    CHECK_EQ_I64(doc.kind, GM_DOC_VECTOR);
    check_case_equal(&c, &doc.c);
    check_outputs_equal(&legacy, &doc.reference);
    check_outputs_equal(&fused, &doc.fused);
    gm_doc_free(&doc);
    gm_outputs_free(&legacy);
    gm_outputs_free(&fused);
    gm_case_free(&c);
}

static void build_repro(gm_repro *r) {
    static const char *const classes[] = {"negative_token_rounding", "stale_tail"};
    memset(r, 0, sizeof *r);
    r->backend = copy_of("cpu", 4);
    r->verdict.status = GM_STATUS_FUSED_OUT_OF_BOUNDS;
    r->verdict.compare = GM_COMPARE_STRICT;
    r->verdict.buffers = (1u << GM_BUF_PAGE_TABLE) | (1u << GM_BUF_SWA_OUT_CACHE_LOC);
    r->verdict.n_differences = 3;
    r->verdict.first = (gm_difference){true, GM_BUF_PAGE_TABLE, 2, {1, 1}, -1, 0};
    r->n_classes = 2;
    r->classes = malloc(2 * sizeof *r->classes);
    for (size_t i = 0; i < 2; i++) {
        r->classes[i] = copy_of(classes[i], strlen(classes[i]) + 1);
    }
    r->signature = copy_of("sig", 4);
    r->has_found = true;
    r->found_by = copy_of("afl++", 6);
    r->found_at = copy_of("2025-01-02T03:04:05Z", 21);
    r->found_execs = UINT64_MAX;
    r->minimized = true;
    r->tool_version = copy_of("gmfuzz 0.1.0", 13);
}

static void test_repro_round_trip(void) {
    gm_case c;
    gm_outputs ref, fused;
    gm_repro r;
    gm_doc doc;
    build_full(&c);
    build_outputs(&c, &ref, NULL);
    build_outputs(&c, &fused, "out_of_bounds: req_to_token");
    build_repro(&r);
    CHECK(reparse(gm_json_repro(&c, &ref, &fused, &r), &doc));
    CHECK_EQ_I64(doc.kind, GM_DOC_REPRO);
    check_case_equal(&c, &doc.c);
    check_outputs_equal(&ref, &doc.reference);
    check_outputs_equal(&fused, &doc.fused);
    check_repro_equal(&r, &doc.repro);
    /* A repro without "found" and with a rank-1 first difference. */
    r.has_found = false;
    r.verdict.first = (gm_difference){true, GM_BUF_SWA_OUT_CACHE_LOC, 1, {1, 0}, INT64_MIN, 5};
    gm_doc_free(&doc);
    CHECK(reparse(gm_json_repro(&c, &ref, &fused, &r), &doc));
    CHECK(!doc.repro.has_found);
    CHECK(gm_verdict_equal(&r.verdict, &doc.repro.verdict));
    gm_doc_free(&doc);
    gm_repro_free(&r);
    gm_outputs_free(&ref);
    gm_outputs_free(&fused);
    gm_case_free(&c);
}

/* ------------------------------------------------------------------ */
/* Exact text                                                          */

static void test_verdict_text(void) {
    gm_verdict v;
    memset(&v, 0, sizeof v);
    v.status = GM_STATUS_MISMATCH;
    v.compare = GM_COMPARE_LIVE;
    v.buffers = 1u << GM_BUF_PAGE_TABLE;
    v.n_differences = 1;
    v.first = (gm_difference){true, GM_BUF_PAGE_TABLE, 2, {0, 3}, -1, 0};
    expect_text(gm_json_verdict(&v),
                "{\"status\":\"mismatch\",\"compare\":\"live\",\"buffers\":[\"page_table\"],"
                "\"n_differences\":1,\"first_difference\":{\"buffer\":\"page_table\","
                "\"index\":[0,3],\"reference\":-1,\"fused\":0}}");
    v.first.present = false;
    v.buffers = 0;
    v.status = GM_STATUS_MATCH;
    v.n_differences = 0;
    expect_text(gm_json_verdict(&v), "{\"status\":\"match\",\"compare\":\"live\",\"buffers\":[],"
                                     "\"n_differences\":0,\"first_difference\":null}");
}

static void test_outputs_text(void) {
    gm_case c;
    gm_outputs o;
    build_decode(&c);
    gm_error err;
    gm_outputs_init(&o);
    CHECK(gm_outputs_prepare(&o, &c, &err));
    expect_text(gm_json_outputs(&o),
                "{\"cache_seqlens\":[0,0],\"cu_seqlens_k\":[0,0,0],\"cu_seqlens_q\":[0,1,2],"
                "\"page_table\":[[0,0],[0,0]],\"swa_page_table\":null,"
                "\"swa_out_cache_loc\":null,\"error\":null}");
    gm_outputs_free(&o);
    gm_case_free(&c);
}

/* Integers beyond 2^53 are strings in the file and read back exactly. */
static void test_big_integers(void) {
    gm_case c;
    gm_doc doc;
    build_full(&c);
    cJSON *root = gm_json_case(&c);
    char *text = cJSON_PrintUnformatted(root);
    CHECK_STR_CONTAINS(text, "\"seq_lens_cpu\":[0,\"9007199254740993\"]");
    CHECK_STR_CONTAINS(text, "\"mapping\":[5,1099511627779,\"9223372036854775807\","
                             "\"-9223372036854775808\",-1]");
    CHECK_STR_CONTAINS(text, "\"swa_out_cache_loc\":\"-9223372036854775808\"");
    gm_error err;
    CHECK(parse_text(text, &doc, &err));
    CHECK_EQ_I64(doc.c.seq_lens_cpu[1], 9007199254740993);
    CHECK_EQ_I64(doc.c.swa.mapping[2], INT64_MAX);
    CHECK_EQ_I64(doc.c.swa.mapping[3], INT64_MIN);
    gm_doc_free(&doc);
    cJSON_free(text);
    cJSON_Delete(root);
    gm_case_free(&c);
}

/* ------------------------------------------------------------------ */
/* Files                                                               */

static bool file_text(const char *path, char *buf, size_t size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return false;
    }
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
    return true;
}

static void test_write_file(void) {
    gm_case c;
    gm_doc doc;
    gm_error err;
    build_decode(&c);
    cJSON *root = gm_json_case(&c);
    const char *path = "test_json_written.json";
    CHECK(gm_json_write_file(path, root, &err));
    char text[4096];
    CHECK(file_text(path, text, sizeof text));
    size_t n = strlen(text);
    CHECK(n > 1 && text[n - 1] == '\n' && text[n - 2] == '}'); /* compact, one line */
    CHECK(strchr(text, '\n') == text + n - 1);
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s.tmp.", path);
    DIR *dir = opendir(".");
    for (struct dirent *e = dir != NULL ? readdir(dir) : NULL; e != NULL; e = readdir(dir)) {
        CHECK(strncmp(e->d_name, tmp, strlen(tmp)) != 0); /* no temporary left behind */
    }
    if (dir != NULL) {
        closedir(dir);
    }
    CHECK(gm_json_read_file(path, NULL, &doc, &err));
    check_case_equal(&c, &doc.c);
    gm_doc_free(&doc);
    /* A directory that does not exist: the message names the path and why. */
    CHECK(!gm_json_write_file("no-such-dir/x.json", root, &err));
    CHECK_EQ_I64(err.code, GM_ERR_IO);
    CHECK_STR_CONTAINS(err.msg, "no-such-dir/x.json");
    CHECK_STR_CONTAINS(err.msg, "No such file or directory");
    remove(path);
    cJSON_Delete(root);
    gm_case_free(&c);
}

static void test_read_errors(void) {
    gm_doc doc;
    gm_error err;
    CHECK(!gm_json_read_file("no-such-file.json", NULL, &doc, &err));
    CHECK_EQ_I64(err.code, GM_ERR_IO);
    CHECK_STR_CONTAINS(err.msg, "no-such-file.json: cannot open: No such file or directory");
    gm_doc_free(&doc);
    CHECK(!gm_json_read_file(".", NULL, &doc, &err));
    CHECK_STR_CONTAINS(err.msg, "directory");
    gm_doc_free(&doc);
    CHECK(!parse_text("{\"format\": \"gmfuzz-case-v1\",\n  \"mode\": decode}", &doc, &err));
    CHECK_STR_CONTAINS(err.msg,
                       "t.json: JSON syntax error at byte 39 (line 2, column 11) near \"decode}\"");
    CHECK(!parse_text("{} {}", &doc, &err));
    CHECK_STR_CONTAINS(err.msg, "t.json: unexpected text after the JSON document at byte 3");
    CHECK(!parse_text("", &doc, &err));
    CHECK_STR_CONTAINS(err.msg, "t.json: JSON syntax error at byte 0");
    CHECK(!parse_text("[1, 2]", &doc, &err));
    CHECK_STR_CONTAINS(err.msg, "t.json: the document must be a JSON object, found an array");
    gm_limits lim;
    gm_limits_default(&lim);
    lim.max_file_bytes = 4;
    CHECK(!gm_json_parse("{ }  ", 5, "t.json", &lim, &doc, &err));
    CHECK_EQ_I64(err.code, GM_ERR_LIMIT);
    CHECK_STR_CONTAINS(err.msg, "--max-file-size");
    CHECK(!gm_json_parse(NULL, 0, "t.json", NULL, &doc, &err));
    gm_doc_free(&doc);
}

/* Parsing into a doc that a failed parse left behind is safe, and freeing
 * twice is too. */
static void test_doc_reuse(void) {
    gm_doc doc;
    gm_error err;
    gm_doc_init(&doc);
    gm_doc_free(&doc);
    gm_doc_free(&doc);
    CHECK(strcmp(gm_doc_kind_name(GM_DOC_REPRO), "repro") == 0);
    CHECK(strcmp(gm_doc_kind_name(GM_DOC_VECTOR), "vector") == 0);
    CHECK(strcmp(gm_doc_kind_name(GM_DOC_CASE), "case") == 0);
    CHECK(!parse_text("{\"format\":\"gmfuzz-case-v1\",\"name\":\"x\",\"mode\":\"decode\"}", &doc,
                      &err));
    CHECK_STR_CONTAINS(err.msg, "t.json: page_size: is missing");
    CHECK(doc.c.name == NULL);
    gm_doc_free(&doc);
}

/* ------------------------------------------------------------------ */
/* Valid example files and the conformance vectors                     */

static bool read_data(const char *name, gm_doc *doc) {
    char path[1024];
    gm_error err;
    snprintf(path, sizeof path, "%s/valid/%s", data_dir, name);
    bool ok = gm_json_read_file(path, NULL, doc, &err);
    if (!ok) {
        fprintf(stderr, "  %s\n", err.msg);
    }
    return ok;
}

static void test_example_case(void) {
    gm_doc doc;
    CHECK(read_data("case_example.json", &doc));
    CHECK_EQ_I64(doc.kind, GM_DOC_CASE);
    CHECK_EQ_I64(doc.c.mode, GM_MODE_DRAFT_EXTEND);
    CHECK_EQ_I64(doc.c.pool, 2);
    CHECK_EQ_I64(doc.c.width, 64);
    CHECK_EQ_I64(doc.c.bs, 2);
    CHECK_EQ_I64(doc.c.qlens[1], 2);
    CHECK(doc.c.has_max_seq_pages && doc.c.max_seq_pages == 4);
    CHECK(doc.c.has_swa && doc.c.swa.page_table && doc.c.swa.has_out_len);
    CHECK_EQ_I64(doc.c.swa.out_len, 4);
    CHECK_EQ_I64(doc.c.swa.n_out, 2);
    CHECK_EQ_I64(doc.c.init[GM_BUF_PAGE_TABLE].kind, GM_INIT_FILL);
    CHECK_EQ_I64(doc.c.init[GM_BUF_PAGE_TABLE].fill, -7);
    CHECK_EQ_I64(doc.c.init[GM_BUF_SWA_OUT_CACHE_LOC].kind, GM_INIT_ARRAY);
    CHECK_EQ_I64(doc.c.init[GM_BUF_SWA_OUT_CACHE_LOC].values[3], 4);
    gm_doc_free(&doc);
}

static void test_example_strings(void) {
    gm_doc doc;
    CHECK(read_data("case_string_integers.json", &doc));
    CHECK_EQ_I64(doc.c.page_size, 16);
    CHECK_EQ_I64(doc.c.seq_lens[0], INT64_MAX);
    CHECK_EQ_I64(doc.c.req_pool_indices[0], INT64_MIN);
    CHECK_EQ_I64(doc.c.req_to_token[1], INT32_MIN);
    CHECK(doc.c.has_swa == false);
    CHECK(doc.c.seq_lens_cpu == NULL && doc.c.qlens == NULL); /* null: absent */
    gm_doc_free(&doc);
}

static void test_example_repro(void) {
    gm_doc doc;
    CHECK(read_data("repro_example.json", &doc));
    CHECK_EQ_I64(doc.kind, GM_DOC_REPRO);
    CHECK(strcmp(doc.repro.backend, "cpu") == 0);
    CHECK_EQ_I64(doc.repro.verdict.compare, GM_COMPARE_LIVE);
    CHECK_EQ_I64(doc.repro.verdict.status, GM_STATUS_MISMATCH); /* no "status": the default */
    CHECK(doc.repro.verdict.first.present);
    CHECK_EQ_I64(doc.repro.verdict.first.index[1], 1);
    CHECK_EQ_I64(doc.repro.verdict.first.reference, -1);
    CHECK_EQ_I64(doc.repro.n_classes, 1);
    CHECK(doc.repro.has_found && doc.repro.found_execs == 123456);
    CHECK(doc.repro.minimized);
    CHECK(doc.reference.error == NULL);
    gm_doc_free(&doc);
}

/* Reads a vector, writes it back, reads that: the same document. */
static bool check_vector_file(const char *path) {
    gm_doc doc, again;
    gm_error err;
    if (!gm_json_read_file(path, NULL, &doc, &err)) {
        fprintf(stderr, "  %s\n", err.msg);
        return false;
    }
    bool ok = doc.kind == GM_DOC_VECTOR && doc.c.name != NULL;
    int before = gm_test_failures;
    if (reparse(gm_json_vector(&doc.c, &doc.reference, &doc.fused), &again)) {
        check_case_equal(&doc.c, &again.c);
        check_outputs_equal(&doc.reference, &again.reference);
        check_outputs_equal(&doc.fused, &again.fused);
        gm_doc_free(&again);
    }
    gm_doc_free(&doc);
    return ok && gm_test_failures == before;
}

static void test_conformance_vectors(void) {
    if (vectors_dir == NULL) {
        fprintf(stderr, "  no vectors folder given: skipping the conformance vectors\n");
        return;
    }
    DIR *dir = opendir(vectors_dir);
    CHECK(dir != NULL);
    size_t n = 0, good = 0;
    for (struct dirent *e = dir != NULL ? readdir(dir) : NULL; e != NULL; e = readdir(dir)) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0) {
            continue;
        }
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", vectors_dir, e->d_name);
        n++;
        good += check_vector_file(path);
    }
    if (dir != NULL) {
        closedir(dir);
    }
    fprintf(stderr, "  %zu of %zu conformance vectors read and round-tripped\n", good, n);
    CHECK(n > 0);
    CHECK_EQ_I64(good, n);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_json DATA_DIR [VECTORS_DIR]\n");
        return 2;
    }
    data_dir = argv[1];
    vectors_dir = argc > 2 ? argv[2] : NULL;
    GM_RUN(test_case_round_trip);
    GM_RUN(test_vector_round_trip);
    GM_RUN(test_repro_round_trip);
    GM_RUN(test_verdict_text);
    GM_RUN(test_outputs_text);
    GM_RUN(test_big_integers);
    GM_RUN(test_write_file);
    GM_RUN(test_read_errors);
    GM_RUN(test_doc_reuse);
    GM_RUN(test_example_case);
    GM_RUN(test_example_strings);
    GM_RUN(test_example_repro);
    GM_RUN(test_conformance_vectors);
    GM_TEST_END();
}
