/* gm_json: reading and writing the gmfuzz JSON documents (docs/FORMATS.md).
 *
 *   gmfuzz-case-v1     one case
 *   gmfuzz-vector-v1   a case + the outputs of the real implementations
 *   gmfuzz-repro-v1    a case + both outputs + the verdict, written by fuzzers
 *
 * Readers validate every rule of the format and fail with one message that
 * names the file, the field and the index ("f.json: swa.mapping[17]: 1.5 is
 * not an integer"). They never crash on hostile input and never fill in a
 * silent default for a malformed value. Unknown fields are ignored (the
 * formats allow additions).
 *
 * Integers are written as JSON numbers when |v| <= 2^53 and as decimal
 * strings beyond; both are read.
 */
#ifndef GM_JSON_H
#define GM_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_oracle.h"
#include "gm_outputs.h"

/* Reader limits that keep a hostile file from exhausting memory. */
typedef struct {
    size_t max_file_bytes; /* size of one document */
    size_t max_elements;   /* integers in one case (inputs and output buffers) */
    size_t max_bs;         /* batch rows */
    size_t max_width;      /* req_to_token row width, page-table width */
} gm_limits;

#define GM_LIMIT_DEFAULT_FILE_BYTES ((size_t)256 << 20)
#define GM_LIMIT_DEFAULT_ELEMENTS ((size_t)1 << 26)
#define GM_LIMIT_DEFAULT_BS ((size_t)1 << 16)
#define GM_LIMIT_DEFAULT_WIDTH ((size_t)1 << 20)

void gm_limits_default(gm_limits *l);

typedef enum { GM_DOC_CASE, GM_DOC_VECTOR, GM_DOC_REPRO } gm_doc_kind;

/* The implementation that ran the fused side (docs/TARGETS.md): a
 * reproducer's "target" object. Every string is NULL when absent. */
typedef struct {
    char *spec;           /* "builtin:cpu", "lib:/x/libk.so", "python:examples/torch_fused.py" */
    char *kind;           /* "builtin", "lib", "python" */
    char *module;         /* python: the module imported */
    char *function;       /* python: the function called */
    char *file;           /* lib: the library; python: the module's source file */
    char *sha256;         /* of `file`, hex */
    char *version;        /* the module's __version__ */
    char *device;         /* python: "cuda" or "cpu" */
} gm_target_record;

void gm_target_record_free(gm_target_record *t);
/* Deep copy; false when memory runs out. */
bool gm_target_record_copy(gm_target_record *dst, const gm_target_record *src);

/* What a fuzzer recorded about a mismatch (gmfuzz-repro-v1). */
typedef struct {
    char *backend;        /* "cpu", "cuda", ..., "lib", "python" */
    bool has_target;
    gm_target_record target;
    char *reference_drift; /* how the C reference and real PyTorch disagreed, or NULL */
    bool has_torch;        /* "torch_reference": a three-way run's torch legacy outputs */
    gm_outputs torch;      /* (its "error": torch's exception when it raised) */
    gm_verdict verdict;   /* status, compare, buffers, first_difference */
    char **classes;
    size_t n_classes;
    char *signature;
    bool has_found;
    char *found_by;       /* "libfuzzer", "afl++", "replay", ... */
    char *found_at;       /* ISO-8601 */
    uint64_t found_execs;
    bool minimized;
    char *tool_version;
} gm_repro;

typedef struct {
    gm_doc_kind kind;
    gm_case c;
    gm_outputs reference; /* vector: "legacy"; repro: "reference" */
    gm_outputs fused;     /* vector and repro: "fused" */
    gm_repro repro;       /* repro only */
} gm_doc;

void gm_doc_init(gm_doc *d);
void gm_doc_free(gm_doc *d);
void gm_repro_free(gm_repro *r);
const char *gm_doc_kind_name(gm_doc_kind k);

/* Reads any of the three documents; `label` (usually the path) starts every
 * error message. */
bool gm_json_read_file(const char *path, const gm_limits *lim, gm_doc *doc, gm_error *err);
bool gm_json_parse(const char *text, size_t len, const char *label, const gm_limits *lim,
                   gm_doc *doc, gm_error *err);

/* Builders: each returns a new cJSON tree (NULL when memory runs out). */
cJSON *gm_json_case(const gm_case *c);
cJSON *gm_json_outputs(const gm_outputs *o);
cJSON *gm_json_verdict(const gm_verdict *v);       /* {"status", "compare", "buffers", "first_difference"} */
cJSON *gm_json_difference(const gm_difference *d); /* null when !d->present */
cJSON *gm_json_repro(const gm_case *c, const gm_outputs *ref, const gm_outputs *fused,
                     const gm_repro *r);
cJSON *gm_json_vector(const gm_case *c, const gm_outputs *legacy, const gm_outputs *fused);
cJSON *gm_json_int(int64_t v); /* number when |v| <= 2^53, else decimal string */

/* Prints `root` and writes it to `path` atomically (temporary file, fsync,
 * rename), so that a reader never sees half a file. */
bool gm_json_write_file(const char *path, const cJSON *root, gm_error *err);

#endif
