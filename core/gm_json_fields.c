/* gm_json_fields: the tables of docs/FORMATS.md (see gm_json_fields.h).
 * A row's offsets are into the struct of the object it describes: gm_case
 * for the case, gm_swa, gm_outputs, gm_difference, gm_verdict,
 * gm_target_record, gm_repro (found), and gm_doc for the two documents
 * that hold a case. */
#include "gm_json_fields.h"

#include <string.h>

#include "gm_json.h"

#define GM_JSON_FIELDS_COUNT(rows) (sizeof(rows) / sizeof((rows)[0]))
#define GM_JSON_FIELDS_TABLE(id, label, rows)                                              \
    const gm_json_table id = {label, rows, GM_JSON_FIELDS_COUNT(rows)}

/* ---- names ----------------------------------------------------------------- */

static bool gm_json_fields_parse_mode(const char *name, void *out) {
    return gm_mode_from_name(name, out);
}
static const char *gm_json_fields_mode_name(const void *v) {
    return gm_mode_name(*(const gm_mode *)v);
}
static bool gm_json_fields_parse_compare(const char *name, void *out) {
    return gm_compare_from_name(name, out);
}
static const char *gm_json_fields_compare_name(const void *v) {
    return gm_compare_name(*(const gm_compare *)v);
}
static bool gm_json_fields_parse_status(const char *name, void *out) {
    return gm_status_from_name(name, out);
}
static const char *gm_json_fields_status_name(const void *v) {
    return gm_status_name(*(const gm_status *)v);
}

bool gm_json_fields_parse_buf(const char *name, void *out) {
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        if (strcmp(name, gm_buf_name((gm_buf_id)id)) == 0) {
            *(gm_buf_id *)out = (gm_buf_id)id;
            return true;
        }
    }
    return false;
}
static const char *gm_json_fields_buf_name(const void *v) {
    return gm_buf_name(*(const gm_buf_id *)v);
}

static const gm_json_names gm_json_fields_modes = {
    gm_json_fields_parse_mode, gm_json_fields_mode_name,
    "decode, draft_decode, target_verify, draft_extend or draft_extend_v2"};
static const gm_json_names gm_json_fields_compares = {
    gm_json_fields_parse_compare, gm_json_fields_compare_name, "live or strict"};
static const gm_json_names gm_json_fields_statuses = {
    gm_json_fields_parse_status, gm_json_fields_status_name,
    "match, mismatch, reference_error, fused_out_of_bounds, target_failed or reference_drift"};
static const gm_json_names gm_json_fields_buffers = {
    gm_json_fields_parse_buf, gm_json_fields_buf_name, GM_JSON_FIELDS_BUF_NAMES};

/* ---- the case ---------------------------------------------------------------- */

/* The per-mode scalars default to 0: written in the mode that uses them,
 * elsewhere only when nonzero (a reader gets back exactly what was built). */
static bool gm_json_fields_step_written(const void *object) {
    const gm_case *c = object;
    return c->mode == GM_MODE_DRAFT_DECODE || c->speculative_step_id != 0;
}
static bool gm_json_fields_draft_tokens_written(const void *object) {
    const gm_case *c = object;
    return c->mode == GM_MODE_TARGET_VERIFY || c->num_draft_tokens != 0;
}
static bool gm_json_fields_stride_written(const void *object) {
    const gm_case *c = object;
    return c->mode == GM_MODE_DRAFT_EXTEND_V2 || c->q_stride != 0;
}

/* "init" is written when some buffer has prior contents of its own. */
static bool gm_json_fields_init_written(const void *object) {
    const gm_case *c = object;
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        if (c->init[id].kind != GM_INIT_DEFAULT) {
            return true;
        }
    }
    return false;
}

/* The [bs] arrays that follow req_pool_indices. */
#define GM_JSON_FIELDS_BATCH(k, req, member, is64)                                         \
    {.key = k, .kind = GM_JSON_ARRAY, .required = req, .at = offsetof(gm_case, member),    \
     .int64 = is64, .length = GM_JSON_LENGTH_MATCHES, .length_at = offsetof(gm_case, bs),  \
     .length_of = "req_pool_indices", .dim = "bs"}

static const gm_json_field gm_json_fields_case_rows[] = {
    {.key = "format", .kind = GM_JSON_FORMAT, .text = GM_JSON_FORMAT_CASE},
    {.key = "name", .kind = GM_JSON_STRING, .at = offsetof(gm_case, name)},
    {.key = "mode", .kind = GM_JSON_NAME, .required = true, .at = offsetof(gm_case, mode),
     .names = &gm_json_fields_modes},
    {.key = "page_size", .kind = GM_JSON_I32, .required = true,
     .at = offsetof(gm_case, page_size), .min = 1, .has_min = true},
    {.key = "max_context_len", .kind = GM_JSON_I32, .required = true,
     .at = offsetof(gm_case, max_context_len), .min = 1, .has_min = true},
    {.key = "req_to_token", .kind = GM_JSON_ROWS, .required = true},
    {.key = "req_pool_indices", .kind = GM_JSON_ARRAY, .required = true,
     .at = offsetof(gm_case, req_pool_indices), .int64 = true, .length = GM_JSON_LENGTH_SETS,
     .length_at = offsetof(gm_case, bs), .limit = GM_JSON_LIMIT_BS},
    GM_JSON_FIELDS_BATCH("seq_lens", true, seq_lens, true),
    GM_JSON_FIELDS_BATCH("seq_lens_cpu", false, seq_lens_cpu, true),
    {.key = "speculative_step_id", .kind = GM_JSON_I32,
     .at = offsetof(gm_case, speculative_step_id), .written = gm_json_fields_step_written},
    {.key = "num_draft_tokens", .kind = GM_JSON_I32, .at = offsetof(gm_case, num_draft_tokens),
     .written = gm_json_fields_draft_tokens_written},
    GM_JSON_FIELDS_BATCH("qlens", false, qlens, false),
    {.kind = GM_JSON_RULE, .rule = GM_JSON_RULE_QLENS_FOR_DRAFT_EXTEND},
    {.key = "q_stride", .kind = GM_JSON_I32, .at = offsetof(gm_case, q_stride),
     .written = gm_json_fields_stride_written},
    {.key = "max_seq_pages", .kind = GM_JSON_I32, .at = offsetof(gm_case, max_seq_pages),
     .given_at = GM_JSON_GIVEN(gm_case, has_max_seq_pages), .min = 0, .has_min = true,
     .limit = GM_JSON_LIMIT_WIDTH, .what = "the page-table width"},
    {.key = "swa", .kind = GM_JSON_OBJECT, .at = offsetof(gm_case, swa),
     .given_at = GM_JSON_GIVEN(gm_case, has_swa), .table = &gm_json_fields_swa},
    {.kind = GM_JSON_RULE, .rule = GM_JSON_RULE_COUNT_OUTPUTS},
    {.key = "init", .kind = GM_JSON_INIT, .written = gm_json_fields_init_written},
    {.kind = GM_JSON_RULE, .rule = GM_JSON_RULE_CASE_CHECK},
};
GM_JSON_FIELDS_TABLE(gm_json_fields_case, "case", gm_json_fields_case_rows);

static const gm_json_field gm_json_fields_swa_rows[] = {
    {.key = "mapping", .kind = GM_JSON_ARRAY, .required = true, .at = offsetof(gm_swa, mapping),
     .int64 = true, .length = GM_JSON_LENGTH_SETS, .length_at = offsetof(gm_swa, mapping_len),
     .min_length = 1},
    {.key = "page_table", .kind = GM_JSON_BOOL, .at = offsetof(gm_swa, page_table),
     .fallback = true},
    {.key = "out_cache_loc", .kind = GM_JSON_ARRAY, .at = offsetof(gm_swa, out_cache_loc),
     .int64 = true, .length = GM_JSON_LENGTH_SETS, .length_at = offsetof(gm_swa, n_out)},
    /* the length of an output buffer: counted before anyone allocates it */
    {.key = "out_len", .kind = GM_JSON_COUNT, .at = offsetof(gm_swa, out_len),
     .given_at = GM_JSON_GIVEN(gm_swa, has_out_len), .limit = GM_JSON_LIMIT_ELEMENTS},
};
GM_JSON_FIELDS_TABLE(gm_json_fields_swa, "swa", gm_json_fields_swa_rows);

/* ---- outputs and verdicts ------------------------------------------------------- */

#define GM_JSON_FIELDS_BUFFER(k, id) {.key = k, .kind = GM_JSON_BUFFER, .buf = id}

static const gm_json_field gm_json_fields_outputs_rows[] = {
    GM_JSON_FIELDS_BUFFER("cache_seqlens", GM_BUF_CACHE_SEQLENS),
    GM_JSON_FIELDS_BUFFER("cu_seqlens_k", GM_BUF_CU_SEQLENS_K),
    GM_JSON_FIELDS_BUFFER("cu_seqlens_q", GM_BUF_CU_SEQLENS_Q),
    GM_JSON_FIELDS_BUFFER("page_table", GM_BUF_PAGE_TABLE),
    GM_JSON_FIELDS_BUFFER("swa_page_table", GM_BUF_SWA_PAGE_TABLE),
    GM_JSON_FIELDS_BUFFER("swa_out_cache_loc", GM_BUF_SWA_OUT_CACHE_LOC),
    {.key = "error", .kind = GM_JSON_STRING, .at = offsetof(gm_outputs, error),
     .absent = GM_JSON_ABSENT_NULL},
};
GM_JSON_FIELDS_TABLE(gm_json_fields_outputs, "outputs", gm_json_fields_outputs_rows);

static const gm_json_field gm_json_fields_difference_rows[] = {
    {.key = "buffer", .kind = GM_JSON_NAME, .required = true, .at = offsetof(gm_difference, buf),
     .names = &gm_json_fields_buffers},
    {.kind = GM_JSON_RULE, .rule = GM_JSON_RULE_DIFFERENCE_BUFFER},
    {.key = "index", .kind = GM_JSON_INDEX, .required = true},
    {.key = "reference", .kind = GM_JSON_ELEMENT, .required = true,
     .at = offsetof(gm_difference, reference)},
    {.key = "fused", .kind = GM_JSON_ELEMENT, .required = true,
     .at = offsetof(gm_difference, fused)},
};
GM_JSON_FIELDS_TABLE(gm_json_fields_difference, "first_difference",
                     gm_json_fields_difference_rows);

/* A repro puts its classes and signature between these and first_difference. */
static const gm_json_field gm_json_fields_verdict_counts_rows[] = {
    /* absent: the mismatch that repros written before "status" recorded */
    {.key = "status", .kind = GM_JSON_NAME, .at = offsetof(gm_verdict, status),
     .names = &gm_json_fields_statuses},
    {.key = "compare", .kind = GM_JSON_NAME, .required = true,
     .at = offsetof(gm_verdict, compare), .names = &gm_json_fields_compares},
    {.key = "buffers", .kind = GM_JSON_BUFFER_SET, .at = offsetof(gm_verdict, buffers)},
    {.key = "n_differences", .kind = GM_JSON_COUNT, .at = offsetof(gm_verdict, n_differences)},
};
GM_JSON_FIELDS_TABLE(gm_json_fields_verdict_counts, "verdict",
                     gm_json_fields_verdict_counts_rows);

#define GM_JSON_FIELDS_FIRST_DIFFERENCE(type, member)                                      \
    {.key = "first_difference", .kind = GM_JSON_OBJECT, .at = offsetof(type, member),      \
     .given_at = GM_JSON_GIVEN(type, member.present), .absent = GM_JSON_ABSENT_NULL,       \
     .table = &gm_json_fields_difference}

static const gm_json_field gm_json_fields_verdict_rows[] = {
    {.kind = GM_JSON_INLINE, .table = &gm_json_fields_verdict_counts},
    GM_JSON_FIELDS_FIRST_DIFFERENCE(gm_verdict, first),
};
GM_JSON_FIELDS_TABLE(gm_json_fields_verdict, "verdict", gm_json_fields_verdict_rows);

/* ---- reproducers and vectors ------------------------------------------------------ */

#define GM_JSON_FIELDS_TARGET(k)                                                           \
    {.key = #k, .kind = GM_JSON_STRING, .at = offsetof(gm_target_record, k),               \
     .absent = GM_JSON_ABSENT_NULL}

static const gm_json_field gm_json_fields_target_rows[] = {
    {.key = "spec", .kind = GM_JSON_STRING, .required = true,
     .at = offsetof(gm_target_record, spec)},
    GM_JSON_FIELDS_TARGET(kind),     GM_JSON_FIELDS_TARGET(module),
    GM_JSON_FIELDS_TARGET(function), GM_JSON_FIELDS_TARGET(file),
    GM_JSON_FIELDS_TARGET(sha256),   GM_JSON_FIELDS_TARGET(version),
    GM_JSON_FIELDS_TARGET(device),
};
GM_JSON_FIELDS_TABLE(gm_json_fields_target, "target", gm_json_fields_target_rows);

static const gm_json_field gm_json_fields_found_rows[] = {
    {.key = "by", .kind = GM_JSON_STRING, .required = true, .at = offsetof(gm_repro, found_by)},
    {.key = "at", .kind = GM_JSON_STRING, .required = true, .at = offsetof(gm_repro, found_at)},
    {.key = "execs", .kind = GM_JSON_U64, .required = true,
     .at = offsetof(gm_repro, found_execs)},
};
GM_JSON_FIELDS_TABLE(gm_json_fields_found, "found", gm_json_fields_found_rows);

#define GM_JSON_FIELDS_HEAD(format, reference_key)                                         \
    {.key = "format", .kind = GM_JSON_FORMAT, .text = format},                             \
    {.key = "case", .kind = GM_JSON_OBJECT, .required = true, .at = offsetof(gm_doc, c),   \
     .table = &gm_json_fields_case},                                                       \
    {.key = reference_key, .kind = GM_JSON_OBJECT, .required = true,                       \
     .at = offsetof(gm_doc, reference), .table = &gm_json_fields_outputs},                 \
    {.key = "fused", .kind = GM_JSON_OBJECT, .required = true,                             \
     .at = offsetof(gm_doc, fused), .table = &gm_json_fields_outputs}

static const gm_json_field gm_json_fields_vector_rows[] = {
    GM_JSON_FIELDS_HEAD(GM_JSON_FORMAT_VECTOR, "legacy"),
};
GM_JSON_FIELDS_TABLE(gm_json_fields_vector, "vector", gm_json_fields_vector_rows);

#define GM_JSON_FIELDS_REPRO_STRING(k, req, member)                                        \
    {.key = k, .kind = GM_JSON_STRING, .required = req, .at = offsetof(gm_doc, repro.member)}

static const gm_json_field gm_json_fields_repro_rows[] = {
    GM_JSON_FIELDS_HEAD(GM_JSON_FORMAT_REPRO, "reference"),
    GM_JSON_FIELDS_REPRO_STRING("backend", true, backend),
    {.key = "target", .kind = GM_JSON_OBJECT, .at = offsetof(gm_doc, repro.target),
     .given_at = GM_JSON_GIVEN(gm_doc, repro.has_target), .table = &gm_json_fields_target},
    GM_JSON_FIELDS_REPRO_STRING("reference_drift", false, reference_drift),
    {.key = "torch_reference", .kind = GM_JSON_OBJECT, .at = offsetof(gm_doc, repro.torch),
     .given_at = GM_JSON_GIVEN(gm_doc, repro.has_torch), .table = &gm_json_fields_outputs},
    {.kind = GM_JSON_INLINE, .at = offsetof(gm_doc, repro.verdict),
     .table = &gm_json_fields_verdict_counts},
    {.key = "classes", .kind = GM_JSON_STRINGS, .required = true,
     .at = offsetof(gm_doc, repro.classes), .length_at = offsetof(gm_doc, repro.n_classes),
     .what = "a class name"},
    GM_JSON_FIELDS_REPRO_STRING("signature", true, signature),
    GM_JSON_FIELDS_FIRST_DIFFERENCE(gm_doc, repro.verdict.first),
    {.key = "found", .kind = GM_JSON_OBJECT, .at = offsetof(gm_doc, repro),
     .given_at = GM_JSON_GIVEN(gm_doc, repro.has_found), .table = &gm_json_fields_found},
    {.key = "minimized", .kind = GM_JSON_BOOL, .required = true,
     .at = offsetof(gm_doc, repro.minimized)},
    GM_JSON_FIELDS_REPRO_STRING("tool_version", true, tool_version),
};
GM_JSON_FIELDS_TABLE(gm_json_fields_repro, "repro", gm_json_fields_repro_rows);

/* ---- the documents ------------------------------------------------------------------ */

const gm_json_document gm_json_fields_documents[] = {
    {GM_JSON_FORMAT_CASE, GM_DOC_CASE, &gm_json_fields_case, offsetof(gm_doc, c)},
    {GM_JSON_FORMAT_VECTOR, GM_DOC_VECTOR, &gm_json_fields_vector, 0},
    {GM_JSON_FORMAT_REPRO, GM_DOC_REPRO, &gm_json_fields_repro, 0},
};
const size_t gm_json_fields_n_documents = GM_JSON_FIELDS_COUNT(gm_json_fields_documents);
