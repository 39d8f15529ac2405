/* Replays every conformance vector through reference/ (SPEC section 5):
 * the reference must raise exactly where the real legacy sequence raised,
 * and otherwise leave every buffer equal to the vector's `legacy` buffers.
 *
 * Usage: test_reference_vectors DIR   (DIR holds the *.json vectors)
 * Error texts are PyTorch's own in the vectors: only the presence of an
 * error is compared (CASE_FORMAT.md).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* opendir, strdup */
#endif

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gm_json.h"
#include "gm_outputs.h"
#include "gm_test.h"
#include "reference.h"

/* Tallies over the replay, printed at the end. */
typedef struct {
    int files;
    int raised_both;
    int matched;
    int failed;
} test_reference_vectors_tally;

static bool test_reference_vectors_is_json(const char *name) {
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

static int test_reference_vectors_cmp(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The *.json names under dir, sorted so that the replay order is stable.
 * Returns the count; *names is malloc'ed (free each and the array). */
static size_t test_reference_vectors_list(const char *dir, char ***names) {
    *names = NULL;
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "cannot open %s\n", dir);
        return 0;
    }
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!test_reference_vectors_is_json(e->d_name)) {
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            char **grown = realloc(*names, cap * sizeof *grown);
            CHECK(grown != NULL);
            if (grown == NULL) {
                break;
            }
            *names = grown;
        }
        (*names)[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(*names, n, sizeof **names, test_reference_vectors_cmp);
    return n;
}

/* Buffer `id` of the reference equals the vector's: same presence, same
 * shape, same elements. Prints the first difference. */
static bool test_reference_vectors_same_buffer(const char *file, gm_buf_id id,
                                               const gm_buffer *want, const gm_buffer *got) {
    if (want->present != got->present ||
        (want->present && gm_buffer_count(want) != gm_buffer_count(got))) {
        fprintf(stderr, "%s: %s: presence/size differs (legacy %d/%zu, reference %d/%zu)\n",
                file, gm_buf_name(id), (int)want->present, gm_buffer_count(want),
                (int)got->present, gm_buffer_count(got));
        return false;
    }
    for (size_t k = 0; k < gm_buffer_count(want); k++) {
        if (gm_buffer_get(want, k) != gm_buffer_get(got, k)) {
            fprintf(stderr, "%s: %s[%zu]: legacy %" PRId64 ", reference %" PRId64 "\n", file,
                    gm_buf_name(id), k, gm_buffer_get(want, k), gm_buffer_get(got, k));
            return false;
        }
    }
    return true;
}

/* Replays one vector; true when the reference agrees with `legacy`. */
static bool test_reference_vectors_replay(const char *path, const char *file,
                                          test_reference_vectors_tally *tally) {
    gm_limits lim;
    gm_doc doc;
    gm_error err;
    gm_outputs out;
    reference_result res;
    bool agree = false;
    gm_limits_default(&lim);
    gm_doc_init(&doc);
    gm_outputs_init(&out);
    if (!gm_json_read_file(path, &lim, &doc, &err)) {
        fprintf(stderr, "%s: cannot read: %s\n", file, err.msg);
    } else if (doc.kind != GM_DOC_VECTOR) {
        fprintf(stderr, "%s: not a gmfuzz-vector-v1 document\n", file);
    } else if (!gm_outputs_prepare(&out, &doc.c, &err) ||
               !reference_run(&doc.c, &out, &res, &err)) {
        fprintf(stderr, "%s: reference failed: %s\n", file, err.msg);
    } else if ((doc.reference.error != NULL) != (res.raised != REFERENCE_OK)) {
        fprintf(stderr, "%s: legacy error \"%s\", reference error \"%s\"\n", file,
                doc.reference.error ? doc.reference.error : "(none)",
                out.error ? out.error : "(none)");
    } else if (doc.reference.error != NULL) {
        tally->raised_both++;
        agree = true;
    } else {
        agree = true;
        for (int id = 0; id < GM_BUF_COUNT; id++) {
            agree = test_reference_vectors_same_buffer(file, (gm_buf_id)id, &doc.reference.buf[id],
                                                       &out.buf[id]) && agree;
        }
        tally->matched += agree;
    }
    gm_outputs_free(&out);
    gm_doc_free(&doc);
    return agree;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s VECTOR_DIR\n", argv[0]);
        return 2;
    }
    char **names;
    size_t n = test_reference_vectors_list(argv[1], &names);
    test_reference_vectors_tally tally = {0};
    CHECK(n > 0);
    for (size_t k = 0; k < n; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], names[k]);
        bool agree = test_reference_vectors_replay(path, names[k], &tally);
        CHECK(agree);
        tally.files++;
        tally.failed += !agree;
        free(names[k]);
    }
    free(names);
    fprintf(stderr, "%d vectors: %d equal legacy buffers, %d raised where legacy raised, "
            "%d disagree\n", tally.files, tally.matched, tally.raised_both, tally.failed);
    GM_TEST_END();
}
