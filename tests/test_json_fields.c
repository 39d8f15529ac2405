/* The field tables of core/gm_json_fields.c against the reader and the
 * writer: every required member a table lists, removed from a written
 * reproducer, is reported missing at its path; every member, given twice,
 * is reported twice; the outputs rows are the six buffers by their names.
 *
 *   test_json_fields REPRO.json   (a reproducer with swa, found and a first difference)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_json.h"
#include "gm_json_fields.h"
#include "gm_test.h"

#define TEST_JSON_FIELDS_DEPTH 4

static const char *repro_path;

/* Where a table's object is in the document: the keys that lead to it. */
typedef struct {
    const char *keys[TEST_JSON_FIELDS_DEPTH];
    size_t n;
} test_json_fields_path;

static cJSON *test_json_fields_find(cJSON *root, const test_json_fields_path *p) {
    for (size_t i = 0; root != NULL && i < p->n; i++) {
        root = cJSON_GetObjectItemCaseSensitive(root, p->keys[i]);
    }
    return cJSON_IsObject(root) ? root : NULL;
}

/* "case.swa.mapping" for key `key` under `p`. */
static void test_json_fields_text(const test_json_fields_path *p, const char *key, char *buf,
                                  size_t size) {
    buf[0] = '\0';
    for (size_t i = 0; i < p->n; i++) {
        snprintf(buf + strlen(buf), size - strlen(buf), "%s.", p->keys[i]);
    }
    snprintf(buf + strlen(buf), size - strlen(buf), "%s: ", key);
}

/* Reads the document `root` (after a change) and checks its message. */
static void test_json_fields_expect(const cJSON *root, const char *where, const char *problem) {
    char *text = cJSON_PrintUnformatted(root);
    gm_doc doc;
    gm_error err = {0};
    char expected[256];
    snprintf(expected, sizeof expected, "t.json: %s%s", where, problem);
    CHECK(text != NULL);
    bool ok = text != NULL && gm_json_parse(text, strlen(text), "t.json", NULL, &doc, &err);
    CHECK(!ok);
    CHECK_STR_CONTAINS(err.msg, expected);
    if (ok) {
        gm_doc_free(&doc);
    }
    cJSON_free(text);
}

/* One row: removed when required, then given twice. */
static void test_json_fields_row(const cJSON *doc, const test_json_fields_path *p,
                                 const gm_json_field *f) {
    char where[128];
    test_json_fields_text(p, f->key, where, sizeof where);
    cJSON *copy = cJSON_Duplicate(doc, true);
    cJSON *obj = test_json_fields_find(copy, p);
    cJSON *item = obj != NULL ? cJSON_GetObjectItemCaseSensitive(obj, f->key) : NULL;
    if (f->required) {
        CHECK(item != NULL);
        cJSON_DeleteItemFromObjectCaseSensitive(obj, f->key);
        test_json_fields_expect(copy, where, "is missing");
        cJSON_Delete(copy);
        copy = cJSON_Duplicate(doc, true);
        obj = test_json_fields_find(copy, p);
        item = cJSON_GetObjectItemCaseSensitive(obj, f->key);
    }
    if (item != NULL && !cJSON_IsNull(item)) {
        cJSON_AddItemToObject(obj, f->key, cJSON_Duplicate(item, true));
        test_json_fields_expect(copy, where, "the key appears more than once");
    }
    cJSON_Delete(copy);
}

/* Every row of `t`, and of the tables it nests, at `p`. */
static void test_json_fields_table(const cJSON *doc, const gm_json_table *t,
                                   test_json_fields_path p) {
    for (size_t i = 0; i < t->n; i++) {
        const gm_json_field *f = &t->fields[i];
        if (f->kind == GM_JSON_INLINE) {
            test_json_fields_table(doc, f->table, p);
        }
        if (f->key == NULL || f->kind == GM_JSON_FORMAT) {
            continue; /* the root's format says which table reads the rest */
        }
        test_json_fields_row(doc, &p, f);
        if (f->kind == GM_JSON_OBJECT && p.n < TEST_JSON_FIELDS_DEPTH) {
            test_json_fields_path inner = p;
            inner.keys[inner.n++] = f->key;
            cJSON *copy = cJSON_Duplicate(doc, true);
            CHECK(test_json_fields_find(copy, &inner) != NULL); /* the fixture has them all */
            cJSON_Delete(copy);
            test_json_fields_table(doc, f->table, inner);
        }
    }
}

/* The fixture, with a target record, written by gm_json_repro. */
static cJSON *test_json_fields_fixture(void) {
    gm_doc doc;
    gm_error err = {0};
    CHECK(gm_json_read_file(repro_path, NULL, &doc, &err));
    if (doc.kind != GM_DOC_REPRO) {
        fprintf(stderr, "  %s: %s\n", repro_path, err.msg);
        return NULL;
    }
    gm_target_record t = {.spec = "python:x.py", .kind = "python", .module = "x"};
    CHECK(gm_target_record_copy(&doc.repro.target, &t));
    doc.repro.has_target = true;
    /* a three-way reproducer's torch outputs: the fixture has every member */
    gm_error prep = {0};
    CHECK(gm_outputs_prepare(&doc.repro.torch, &doc.c, &prep));
    doc.repro.has_torch = true;
    cJSON *root = gm_json_repro(&doc.c, &doc.reference, &doc.fused, &doc.repro);
    gm_doc_free(&doc);
    return root;
}

static void test_json_fields_rows_and_messages(void) {
    cJSON *root = test_json_fields_fixture();
    CHECK(root != NULL);
    if (root != NULL) {
        test_json_fields_table(root, &gm_json_fields_repro, (test_json_fields_path){{NULL}, 0});
    }
    cJSON_Delete(root);
}

static void test_json_fields_buffer_rows(void) {
    unsigned seen = 0;
    for (size_t i = 0; i < gm_json_fields_outputs.n; i++) {
        const gm_json_field *f = &gm_json_fields_outputs.fields[i];
        if (f->kind == GM_JSON_BUFFER) {
            CHECK(strcmp(f->key, gm_buf_name(f->buf)) == 0);
            seen |= 1u << f->buf;
        }
    }
    CHECK_EQ_I64(seen, (1u << GM_BUF_COUNT) - 1);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_json_fields REPRO.json\n");
        return 2;
    }
    repro_path = argv[1];
    GM_RUN(test_json_fields_buffer_rows);
    GM_RUN(test_json_fields_rows_and_messages);
    GM_TEST_END();
}
