/* harness_wire_case: a case survives the trip to a GPU worker unchanged.
 *
 *   test_wire_case VECTOR_DIR
 *
 * Encodes and decodes generated cases and every conformance vector's case,
 * and compares the two as JSON documents (every field, every element). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gm_json.h"
#include "gm_test.h"
#include "harness_wire_case.h"

static const char *vector_dir;

static char *case_text(const gm_case *c) {
    cJSON *root = gm_json_case(c);
    char *text = root ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    return text;
}

/* Whether `c` comes back from the wire identical. */
static bool round_trips(const gm_case *c) {
    size_t len = 0;
    char *bytes = harness_wire_case_encode(c, &len);
    gm_case back;
    gm_case_init(&back);
    gm_error err = {0};
    bool decoded = bytes != NULL && harness_wire_case_decode(bytes, len, &back, &err);
    gm_case unnamed = *c; /* the name stays with the harness: not sent */
    unnamed.name = NULL;
    char *a = case_text(&unnamed), *b = decoded ? case_text(&back) : NULL;
    bool same = a && b && strcmp(a, b) == 0;
    if (!same) {
        fprintf(stderr, "round trip failed: %s\n", decoded ? "documents differ" : err.msg);
    }
    cJSON_free(a);
    cJSON_free(b);
    free(bytes);
    gm_case_free(&back);
    return same;
}

static void test_generated_cases(void) {
    harness_gen gen;
    harness_gen_seed(&gen, 5);
    int same = 0;
    for (int n = 0; n < 300; n++) {
        gm_case c;
        gm_case_init(&c);
        gm_error err = {0};
        CHECK(harness_gen_case(&gen, &c, &err));
        same += round_trips(&c);
        gm_case_free(&c);
    }
    CHECK_EQ_I64(same, 300);
}

static void test_vector_cases(void) {
    harness_paths files;
    harness_paths_init(&files);
    gm_error err = {0};
    CHECK(harness_paths_add(&files, vector_dir, &err));
    gm_limits lim;
    gm_limits_default(&lim);
    size_t same = 0;
    for (size_t i = 0; i < files.count; i++) {
        gm_doc doc;
        gm_doc_init(&doc);
        CHECK(gm_json_read_file(files.items[i], &lim, &doc, &err));
        same += round_trips(&doc.c);
        gm_doc_free(&doc);
    }
    CHECK_EQ_I64(same, 250);
    harness_paths_free(&files);
}

static void test_rejects_garbage(void) {
    gm_case c;
    gm_case_init(&c);
    gm_error err = {0};
    CHECK(!harness_wire_case_decode("short", 5, &c, &err));
    CHECK_STR_CONTAINS(err.msg, "truncated");
    gm_case_free(&c);

    gm_case_init(&c);
    c.pool = 1, c.width = 2, c.bs = 0;
    int32_t tokens[2] = {1, 2};
    c.req_to_token = tokens;
    size_t len = 0;
    char *bytes = harness_wire_case_encode(&c, &len);
    gm_case back;
    gm_case_init(&back);
    CHECK(!harness_wire_case_decode(bytes, len - 1, &back, &err)); /* one byte short */
    gm_case_free(&back);
    free(bytes);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_wire_case VECTOR_DIR\n");
        return 2;
    }
    vector_dir = argv[1];
    GM_RUN(test_generated_cases);
    GM_RUN(test_vector_cases);
    GM_RUN(test_rejects_garbage);
    GM_TEST_END();
}
