/* gmfuzz-seed: turns cases (gmfuzz-case-v1, or the case of a vector or a
 * reproducer) into fuzzer inputs for the seed corpus.
 *
 *   gmfuzz-seed [--canonical] [--derive K] CASE.json|DIR... -o DIR
 *
 * Each case is encoded (fuzz_encode.h) and checked: exact encodings must
 * decode to the same case; canonical ones (--canonical: what neither side
 * reads is dropped, see fuzz_encode.h) must give the same reference and
 * fused outputs on the CPU backend, else the exact encoding is kept.
 * --derive K also writes K case-level mutations of each case
 * (fuzz_mutate.h, seeded by the case's position: deterministic). Files are
 * named by a hash of their bytes, so identical inputs are written once.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_decode.h"
#include "fuzz_encode.h"
#include "fuzz_mutate.h"
#include "gm_hash.h"
#include "gm_json.h"
#include "harness.h"

typedef struct {
    bool canonical;
    unsigned derive;
    const char *out_dir;
    harness_paths inputs;
} fuzz_seed_options;

typedef struct {
    harness_backend *cpu;
    size_t cases, written, duplicates, bytes, skipped;
} fuzz_seed_state;

static int fuzz_seed_usage(void) {
    fprintf(stderr, "usage: gmfuzz-seed [--canonical] [--derive K] CASE.json|DIR... -o DIR\n");
    return 2;
}

static bool fuzz_seed_parse(int argc, char **argv, fuzz_seed_options *o, gm_error *err) {
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--canonical") == 0) {
            o->canonical = true;
        } else if (strcmp(argv[k], "--derive") == 0 && k + 1 < argc) {
            o->derive = (unsigned)strtoul(argv[++k], NULL, 10);
        } else if (strcmp(argv[k], "-o") == 0 && k + 1 < argc) {
            o->out_dir = argv[++k];
        } else if (argv[k][0] == '-') {
            return gm_error_set(err, GM_ERR_USAGE, "unknown option %s", argv[k]);
        } else if (!harness_paths_add(&o->inputs, argv[k], err)) {
            return false;
        }
    }
    if (o->out_dir == NULL || o->inputs.count == 0) {
        return gm_error_set(err, GM_ERR_USAGE, "needs cases and -o DIR");
    }
    return true;
}

/* FNV-1a, 64 bits: the file name of an input. */
static uint64_t fuzz_seed_hash(const uint8_t *data, size_t size) {
    return gm_hash_fnv1a(GM_HASH_FNV_BASIS, data, size);
}

static bool fuzz_seed_write(fuzz_seed_state *st, const char *dir, const uint8_t *data,
                            size_t size, gm_error *err) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%016" PRIx64, dir, fuzz_seed_hash(data, size));
    struct stat sb;
    if (stat(path, &sb) == 0) {
        st->duplicates++;
        return true;
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size) {
        if (f != NULL) {
            fclose(f);
        }
        return gm_error_set(err, GM_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    }
    fclose(f);
    st->written++;
    st->bytes += size;
    return true;
}

/* The outputs both sides leave, compared in full (errors too). */
static bool fuzz_seed_same_outputs(const harness_run_result *a, const harness_run_result *b,
                                   const gm_case *c) {
    const gm_outputs *sides[2][2] = {{&a->reference, &b->reference}, {&a->fused, &b->fused}};
    for (int s = 0; s < 2; s++) {
        gm_verdict v;
        const char *e0 = sides[s][0]->error, *e1 = sides[s][1]->error;
        gm_oracle_compare_buffers(c, sides[s][0], sides[s][1], GM_COMPARE_STRICT, &v);
        if (v.status != GM_STATUS_MATCH || (e0 == NULL) != (e1 == NULL) ||
            (e0 != NULL && strcmp(e0, e1) != 0)) {
            return false;
        }
    }
    return true;
}

/* Whether `bytes` decode to `c` (exact) or to a case with c's outputs. */
static bool fuzz_seed_verify(fuzz_seed_state *st, const gm_case *c, const uint8_t *bytes,
                             size_t size, bool canonical, gm_error *err) {
    gm_case d;
    if (!fuzz_decode(bytes, size, &d, err)) {
        return false;
    }
    bool same = fuzz_encode_equal(c, &d);
    if (!same && canonical) {
        harness_run_result a, b;
        harness_run_result_init(&a);
        harness_run_result_init(&b);
        same = harness_run_case(st->cpu, c, GM_COMPARE_STRICT, &a, err) &&
               harness_run_case(st->cpu, &d, GM_COMPARE_STRICT, &b, err) &&
               fuzz_seed_same_outputs(&a, &b, c);
        harness_run_result_free(&a);
        harness_run_result_free(&b);
    }
    gm_case_free(&d);
    return same;
}

/* Encodes one case (canonical when asked and faithful), verifies, writes. */
static bool fuzz_seed_case(fuzz_seed_state *st, const fuzz_seed_options *o, const gm_case *c,
                           const char *label, gm_error *err) {
    for (int attempt = o->canonical ? 0 : 1; attempt < 2; attempt++) {
        const fuzz_encode_options opt = {.canonical = attempt == 0, .hint = NULL};
        uint8_t *bytes = NULL;
        size_t size = 0;
        if (!fuzz_encode(c, &opt, &bytes, &size, err)) {
            fprintf(stderr, "gmfuzz-seed: %s: skipped: %s\n", label, err->msg);
            st->skipped++;
            return err->code != GM_ERR_MEMORY;
        }
        bool ok = fuzz_seed_verify(st, c, bytes, size, opt.canonical, err);
        if (ok) {
            ok = fuzz_seed_write(st, o->out_dir, bytes, size, err);
            free(bytes);
            return ok;
        }
        free(bytes);
        if (!opt.canonical) {
            return gm_error_set(err, GM_ERR_USAGE, "%s: the encoding does not decode back", label);
        }
    }
    return true;
}

static bool fuzz_seed_file(fuzz_seed_state *st, const fuzz_seed_options *o, size_t index,
                           gm_error *err) {
    const char *path = o->inputs.items[index];
    gm_limits lim;
    gm_doc doc;
    gm_limits_default(&lim);
    if (!gm_json_read_file(path, &lim, &doc, err)) {
        return false;
    }
    st->cases++;
    bool ok = fuzz_seed_case(st, o, &doc.c, path, err);
    for (unsigned k = 0; ok && k < o->derive; k++) {
        gm_case m;
        fuzz_rng rng;
        fuzz_rng_seed(&rng, ((uint64_t)index << 16) + k);
        ok = gm_case_copy(&m, &doc.c, err) && fuzz_mutate(&m, &rng, 3, err) &&
             fuzz_seed_case(st, o, &m, path, err);
        gm_case_free(&m);
    }
    gm_doc_free(&doc);
    return ok;
}

int main(int argc, char **argv) {
    fuzz_seed_options o = {0};
    fuzz_seed_state st = {0};
    gm_error err = {0};
    harness_paths_init(&o.inputs);
    bool ok = fuzz_seed_parse(argc, argv, &o, &err);
    if (!ok) {
        fprintf(stderr, "gmfuzz-seed: %s\n", err.msg);
        harness_paths_free(&o.inputs);
        return fuzz_seed_usage();
    }
    if (mkdir(o.out_dir, 0777) != 0 && errno != EEXIST) {
        ok = gm_error_set(&err, GM_ERR_IO, "%s: cannot create: %s", o.out_dir, strerror(errno));
    }
    ok = ok && harness_backend_open(HARNESS_BACKEND_CPU, &st.cpu, &err);
    for (size_t k = 0; ok && k < o.inputs.count; k++) {
        ok = fuzz_seed_file(&st, &o, k, &err);
    }
    if (st.cpu != NULL) {
        harness_backend_close(st.cpu);
    }
    harness_paths_free(&o.inputs);
    if (!ok) {
        fprintf(stderr, "gmfuzz-seed: %s\n", err.msg);
        return 1;
    }
    printf("%zu cases: %zu inputs written (%zu bytes), %zu duplicates, %zu skipped\n", st.cases,
           st.written, st.bytes, st.duplicates, st.skipped);
    return 0;
}
