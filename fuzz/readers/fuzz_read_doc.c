/* fuzz_read_doc: a libFuzzer target of the document reader (gm_json_parse),
 * built once per document kind (FUZZ_READ_KIND: case, vector, repro), each
 * with that kind's seeds.
 *
 * Oracle, besides no crash and (in sanitizer builds) no memory error: a
 * document of the kind that was read is written again (gm_json_case,
 * gm_json_vector, gm_json_repro), that text must read back, and writing what
 * it reads must give the same text: the writer expresses all the reader
 * keeps, and the reader keeps all the writer says. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_json.h"

#ifndef FUZZ_READ_KIND
#define FUZZ_READ_KIND GM_DOC_REPRO
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cJSON *fuzz_read_doc_tree(const gm_doc *d) {
    switch (d->kind) {
    case GM_DOC_CASE: return gm_json_case(&d->c);
    case GM_DOC_VECTOR: return gm_json_vector(&d->c, &d->reference, &d->fused);
    case GM_DOC_REPRO: return gm_json_repro(&d->c, &d->reference, &d->fused, &d->repro);
    }
    return NULL;
}

/* The document as text; NULL when memory runs out (not a finding). */
static char *fuzz_read_doc_print(const gm_doc *d) {
    cJSON *tree = fuzz_read_doc_tree(d);
    char *text = tree != NULL ? cJSON_PrintUnformatted(tree) : NULL;
    cJSON_Delete(tree);
    return text;
}

static void fuzz_read_doc_round_trip(const gm_doc *d, const gm_limits *lim) {
    char *first = fuzz_read_doc_print(d);
    if (first == NULL) {
        return;
    }
    gm_doc again;
    gm_error err = {0};
    if (!gm_json_parse(first, strlen(first), "written", lim, &again, &err)) {
        fprintf(stderr, "fuzz_read_doc: the written document does not read back: %s\n%s\n",
                err.msg, first);
        abort();
    }
    char *second = fuzz_read_doc_print(&again);
    if (second != NULL && strcmp(first, second) != 0) {
        fprintf(stderr, "fuzz_read_doc: written again, the document changed:\n%s\n%s\n", first,
                second);
        abort();
    }
    cJSON_free(second);
    cJSON_free(first);
    gm_doc_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    gm_limits lim;
    gm_limits_default(&lim);
    lim.max_elements = (size_t)1 << 20; /* out_len alone may ask for 2^26 */
    gm_doc doc;
    gm_error err = {0};
    if (gm_json_parse((const char *)data, size, "fuzz", &lim, &doc, &err)) {
        if (doc.kind == FUZZ_READ_KIND) {
            fuzz_read_doc_round_trip(&doc, &lim);
        }
        gm_doc_free(&doc);
    } else if (err.msg[0] == '\0') {
        fprintf(stderr, "fuzz_read_doc: a failure without a message\n");
        abort();
    }
    return 0;
}
