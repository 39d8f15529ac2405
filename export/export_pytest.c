#include "export.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "gm_oracle.h"
#include "gm_outputs.h"
#include "export_pytest_template.h"

#define EXPORT_PYTEST_WIDTH 100 /* where lists of numbers wrap */

/* A run of integers to print, stored as int32 or as int64. */
typedef struct {
    const int32_t *i32;
    const int64_t *i64;
    size_t n;
} export_pytest_ints;

static export_pytest_ints export_pytest_of32(const int32_t *v, size_t n) {
    return (export_pytest_ints){v, NULL, n};
}

static export_pytest_ints export_pytest_of64(const int64_t *v, size_t n) {
    return (export_pytest_ints){NULL, v, n};
}

static export_pytest_ints export_pytest_of_buffer(const gm_buffer *b) {
    size_t n = gm_buffer_count(b);
    return b->is_int64 ? export_pytest_of64(b->data, n) : export_pytest_of32(b->data, n);
}

static int64_t export_pytest_get(export_pytest_ints s, size_t k) {
    return s.i64 != NULL ? s.i64[k] : s.i32[k];
}

/* Elements [start, start + n) of `s`. */
static export_pytest_ints export_pytest_slice(export_pytest_ints s, size_t start, size_t n) {
    if (s.i64 != NULL) {
        s.i64 += start;
    } else {
        s.i32 += start;
    }
    s.n = n;
    return s;
}

/* ---- Python literals ---------------------------------------------------- */

/* A Python string literal: quotes, backslashes and bytes outside printable
 * ASCII escaped. */
static void export_pytest_str(FILE *out, const char *s) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\') {
            fprintf(out, "\\%c", *p);
        } else if (*p < 0x20 || *p >= 0x7f) {
            fprintf(out, "\\x%02x", *p);
        } else {
            fputc(*p, out);
        }
    }
    fputc('"', out);
}

/* Text for the header docstring: anything that could end or escape it
 * (quotes, backslashes, control bytes) becomes '?'. */
static void export_pytest_doc_text(FILE *out, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        bool plain = *p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\';
        fputc(plain ? *p : '?', out);
    }
}

/* "[v0, v1, ...]" wrapped at EXPORT_PYTEST_WIDTH; continuation lines start at
 * column `indent`; `*col` is the column the list starts at, and after it. */
static void export_pytest_list(FILE *out, export_pytest_ints s, int indent, int *col) {
    fputc('[', out);
    (*col)++;
    for (size_t k = 0; k < s.n; k++) {
        char num[32];
        int len = snprintf(num, sizeof num, "%" PRId64, export_pytest_get(s, k));
        if (k > 0 && *col + 2 + len + 2 > EXPORT_PYTEST_WIDTH) {
            fprintf(out, ",\n%*s", indent, "");
            *col = indent;
        } else if (k > 0) {
            fputs(", ", out);
            *col += 2;
        }
        fputs(num, out);
        *col += len;
    }
    fputc(']', out);
    (*col)++;
}

/* A list of `rows` lists of `cols` elements, one row per line. */
static void export_pytest_matrix(FILE *out, export_pytest_ints flat, size_t rows, size_t cols,
                                 int indent) {
    fputc('[', out);
    for (size_t i = 0; i < rows; i++) {
        int col = indent + 4;
        fprintf(out, "\n%*s", indent + 4, "");
        export_pytest_list(out, export_pytest_slice(flat, i * cols, cols), indent + 5, &col);
        fputc(',', out);
    }
    if (rows > 0) {
        fprintf(out, "\n%*s", indent, "");
    }
    fputc(']', out);
}

/* NAME = [..], or NAME = None when `s` is NULL. */
static void export_pytest_assign_list(FILE *out, const char *name, const export_pytest_ints *s) {
    int col = fprintf(out, "%s = ", name);
    if (s == NULL) {
        fputs("None\n", out);
        return;
    }
    export_pytest_list(out, *s, 4, &col);
    fputc('\n', out);
}

/* A buffer's contents (a list, or a list of rows), None when absent. */
static void export_pytest_buffer(FILE *out, const gm_buffer *b, int indent, int col) {
    if (!b->present) {
        fputs("None", out);
    } else if (b->rank == 2) {
        export_pytest_matrix(out, export_pytest_of_buffer(b), b->dims[0], b->dims[1], indent);
    } else {
        export_pytest_list(out, export_pytest_of_buffer(b), indent + 4, &col);
    }
}

/* ---- the header --------------------------------------------------------- */

static void export_pytest_verdict_line(FILE *out, const gm_verdict *v) {
    char line[256];
    gm_verdict_describe(v, line, sizeof line);
    fprintf(out, "verdict:           %s\n", line);
}

/* "page_table[0][3]: reference (legacy) -1, fused 0" */
static void export_pytest_difference_line(FILE *out, const gm_difference *d) {
    fprintf(out, "first difference:  %s[%zu]", gm_buf_name(d->buf), d->index[0]);
    if (d->rank == 2) {
        fprintf(out, "[%zu]", d->index[1]);
    }
    fprintf(out, ": reference (legacy) %" PRId64 ", fused %" PRId64 "\n", d->reference,
            d->fused);
}

static void export_pytest_origin_lines(FILE *out, const gm_repro *r,
                                       const export_pytest_origin *o) {
    if (r->has_found) {
        fputs("found:             by ", out);
        export_pytest_doc_text(out, r->found_by);
        fputs(" at ", out);
        export_pytest_doc_text(out, r->found_at);
        fprintf(out, " after %" PRIu64 " execs; %s\n", r->found_execs,
                r->minimized ? "minimized" : "not minimized");
    }
    fputs("written by:        ", out);
    export_pytest_doc_text(out, o->exporter);
    fputs(" (gmfuzz export pytest); the reproducer by ", out);
    export_pytest_doc_text(out, r->tool_version);
    fputs(" on the ", out);
    export_pytest_doc_text(out, r->backend);
    fputs(" backend\n", out);
}

static void export_pytest_error_line(FILE *out, const char *label, const char *error) {
    if (error != NULL) {
        fprintf(out, "%-19s", label);
        export_pytest_doc_text(out, error);
        fputc('\n', out);
    }
}

static const char export_pytest_usage[] =
    "\n"
    "test_legacy_sequence  runs the legacy ATen op sequence (gmfuzz SPEC section 2) in torch\n"
    "                      and checks it against what gmfuzz's reference recorded, or that\n"
    "                      it raises where the reference raised.\n"
    "test_fused_kernel     calls update_trtllm_mha_graph_metadata on CUDA, from the module\n"
    "                      named by $GMFUZZ_FUSED_MODULE (default: sglang.kernels.ops.kvcache\n"
    "                      .trtllm_mha_graph_metadata, then sglang.srt.layers.attention\n"
    "                      .triton_ops.trtllm_mha_graph_metadata), and checks every buffer\n"
    "                      against what gmfuzz recorded for the fused kernel, at the\n"
    "                      recorded level (COMPARE).\n"
    "\n"
    "Run: pytest THIS_FILE, or python3 THIS_FILE (no pytest needed). The tests skip where\n"
    "torch, CUDA or the module is missing.\n"
    "\"\"\"\n";

static void export_pytest_header(FILE *out, const gm_doc *doc, const export_pytest_origin *o) {
    const gm_repro *r = &doc->repro;
    fputs("\"\"\"gmfuzz reproducer as a pytest test: sglang's legacy ATen metadata rebuild and "
          "the\nfused update_trtllm_mha_graph_metadata kernel on one case.\n\nreproducer:        ",
          out);
    export_pytest_doc_text(out, o->source);
    fputs("\nsignature:         ", out);
    export_pytest_doc_text(out, r->signature);
    fputc('\n', out);
    export_pytest_verdict_line(out, &r->verdict);
    if (r->verdict.first.present) {
        export_pytest_difference_line(out, &r->verdict.first);
    }
    export_pytest_error_line(out, "legacy raised:", doc->reference.error);
    export_pytest_error_line(out, "fused overran:", doc->fused.error);
    export_pytest_origin_lines(out, r, o);
    fputs(export_pytest_usage, out);
}

/* ---- the data ----------------------------------------------------------- */

static void export_pytest_identity(FILE *out, const gm_doc *doc, const export_pytest_origin *o) {
    const char *names[] = {"REPRODUCER", "SIGNATURE", "COMPARE", "EXPORTED_BY"};
    const char *values[] = {o->source, doc->repro.signature,
                            gm_compare_name(doc->repro.verdict.compare), o->exporter};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        fprintf(out, "%s = ", names[k]);
        export_pytest_str(out, values[k]);
        fputc('\n', out);
    }
    fputs("CLASSES = [", out);
    for (size_t k = 0; k < doc->repro.n_classes; k++) {
        fputs(k > 0 ? ", " : "", out);
        export_pytest_str(out, doc->repro.classes[k]);
    }
    fputs("]\n", out);
}

static void export_pytest_case_scalars(FILE *out, const gm_case *c) {
    size_t pages = gm_case_max_num_pages(c);
    fputs("\n# The case (gmfuzz-case-v1): the inputs of one metadata rebuild.\nMODE = ", out);
    export_pytest_str(out, gm_mode_name(c->mode));
    fprintf(out, "\nPAGE_SIZE = %d\nMAX_CONTEXT_LEN = %d\n", (int)c->page_size,
            (int)c->max_context_len);
    fprintf(out,
            "MAX_NUM_PAGES = %zu  # ceil(MAX_CONTEXT_LEN / PAGE_SIZE): the page tables' width\n",
            pages);
    fprintf(out, "MAX_SEQ_PAGES = %zu  # the fused kernel's max_seq_pages\n",
            c->has_max_seq_pages ? (size_t)c->max_seq_pages : pages);
    fprintf(out, "SEQLEN_OFFSET = %" PRId64 "  # what the mode adds to seq_lens\n",
            gm_case_seqlen_offset(c));
    fprintf(out, "SPECULATIVE_STEP_ID = %d\nNUM_DRAFT_TOKENS = %d\nQ_STRIDE = %d\n",
            (int)c->speculative_step_id, (int)c->num_draft_tokens, (int)c->q_stride);
}

static void export_pytest_case_arrays(FILE *out, const gm_case *c) {
    fputs("REQ_TO_TOKEN = ", out);
    export_pytest_matrix(out, export_pytest_of32(c->req_to_token, c->pool * c->width), c->pool,
                         c->width, 0);
    export_pytest_ints rows = export_pytest_of64(c->req_pool_indices, c->bs);
    export_pytest_ints seq = export_pytest_of64(c->seq_lens, c->bs);
    export_pytest_ints seq_cpu =
        c->seq_lens_cpu != NULL ? export_pytest_of64(c->seq_lens_cpu, c->bs) : seq;
    export_pytest_ints qlens = export_pytest_of32(c->qlens, c->bs);
    fputc('\n', out);
    export_pytest_assign_list(out, "REQ_POOL_INDICES", &rows);
    export_pytest_assign_list(out, "SEQ_LENS", &seq);
    export_pytest_assign_list(out, "SEQ_LENS_CPU", &seq_cpu);
    export_pytest_assign_list(out, "QLENS", c->qlens != NULL ? &qlens : NULL);
    fputs("# SWA: the full-to-SWA slot mapping (None: not an SWA model), this step's write\n"
          "# locations (None: no out_cache_loc passed) and the buffer they go to.\n", out);
    export_pytest_ints mapping = export_pytest_of64(c->swa.mapping, c->swa.mapping_len);
    export_pytest_ints locs = export_pytest_of64(c->swa.out_cache_loc, c->swa.n_out);
    export_pytest_assign_list(out, "SWA_MAPPING", c->has_swa ? &mapping : NULL);
    export_pytest_assign_list(out, "OUT_CACHE_LOC",
                              c->has_swa && c->swa.out_cache_loc != NULL ? &locs : NULL);
    if (c->has_swa && c->swa.has_out_len) {
        fprintf(out, "OUT_LEN = %zu  # length of the swa_out_cache_loc buffer\n", c->swa.out_len);
    } else {
        fputs("OUT_LEN = None  # no swa_out_cache_loc buffer\n", out);
    }
}

/* Whether every element of `b` is the same (then the fill is in *value). */
static bool export_pytest_uniform(const gm_buffer *b, int64_t *value) {
    size_t n = gm_buffer_count(b);
    *value = n > 0 ? gm_buffer_get(b, 0) : 0;
    for (size_t k = 1; k < n; k++) {
        if (gm_buffer_get(b, k) != *value) {
            return false;
        }
    }
    return true;
}

/* INIT: the prior contents of every buffer the case has, as gmfuzz
 * prepares them (the case's init, zeros, the mode's cu_seqlens_q preset). */
static bool export_pytest_init(FILE *out, const gm_case *c, gm_error *err) {
    gm_outputs prior;
    gm_outputs_init(&prior);
    if (!gm_outputs_prepare(&prior, c, err)) {
        gm_outputs_free(&prior);
        return false;
    }
    fputs("\n# Prior contents of the output buffers the case has: one fill value, or every "
          "element.\nINIT = {\n", out);
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        const gm_buffer *b = &prior.buf[id];
        int64_t fill;
        if (!b->present) {
            continue;
        }
        int col = fprintf(out, "    \"%s\": ", gm_buf_name((gm_buf_id)id));
        if (export_pytest_uniform(b, &fill)) {
            fprintf(out, "%" PRId64, fill);
        } else {
            export_pytest_buffer(out, b, 4, col);
        }
        fputs(",\n", out);
    }
    fputs("}\n", out);
    gm_outputs_free(&prior);
    return true;
}

static void export_pytest_outputs(FILE *out, const char *name, const gm_outputs *o) {
    fprintf(out, "%s = {\n", name);
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        int col = fprintf(out, "    \"%s\": ", gm_buf_name((gm_buf_id)id));
        export_pytest_buffer(out, &o->buf[id], 4, col);
        fputs(",\n", out);
    }
    fputs("    \"error\": ", out);
    if (o->error != NULL) {
        export_pytest_str(out, o->error);
    } else {
        fputs("None", out);
    }
    fputs(",\n}\n", out);
}

/* LIVE_PAGE_COLUMNS: at the live level, the page-table columns of each row
 * that the comparison reads (the oracle's own rule); None at strict. */
static void export_pytest_live_columns(FILE *out, const gm_doc *doc) {
    fputs("# The page-table columns compared in each row at the recorded level (live: what\n"
          "# attention reads, SPEC section 4); None: every column (strict).\n", out);
    if (doc->repro.verdict.compare != GM_COMPARE_LIVE) {
        fputs("LIVE_PAGE_COLUMNS = None\n", out);
        return;
    }
    size_t pages = gm_case_max_num_pages(&doc->c);
    fputs("LIVE_PAGE_COLUMNS = [", out);
    for (size_t i = 0; i < doc->c.bs; i++) {
        size_t live = 0;
        while (live < pages && gm_oracle_is_live(&doc->c, &doc->reference, GM_BUF_PAGE_TABLE,
                                                 i * pages + live)) {
            live++;
        }
        fprintf(out, "%s%zu", i > 0 ? ", " : "", live);
    }
    fputs("]\n", out);
}

static void export_pytest_first_difference(FILE *out, const gm_difference *d) {
    fputs("FIRST_DIFFERENCE = ", out);
    if (!d->present) {
        fputs("None\n", out);
        return;
    }
    fprintf(out, "{\"buffer\": \"%s\", \"index\": [%zu", gm_buf_name(d->buf), d->index[0]);
    if (d->rank == 2) {
        fprintf(out, ", %zu", d->index[1]);
    }
    fprintf(out, "], \"reference\": %" PRId64 ", \"fused\": %" PRId64 "}\n", d->reference,
            d->fused);
}

/* TARGET: the external target the reproducer was found on (its module
 * file, module, function and device), so that the file runs against it
 * unchanged; None for gmfuzz's own kernel. */
static void export_pytest_target(FILE *out, const gm_repro *r) {
    fputs("\n# The target the reproducer was found on (docs/TARGETS.md); None: gmfuzz's own kernel.\n"
          "TARGET = ", out);
    const gm_target_record *t = &r->target;
    if (!r->has_target || t->kind == NULL || strcmp(t->kind, "python") != 0) {
        fputs("None\n", out);
        return;
    }
    const char *keys[] = {"spec", "file", "module", "function", "device"};
    const char *values[] = {t->spec, t->file, t->module, t->function, t->device};
    fputc('{', out);
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        fprintf(out, "%s\"%s\": ", k ? ", " : "", keys[k]);
        if (values[k] == NULL) {
            fputs("None", out);
        } else {
            export_pytest_str(out, values[k]);
        }
    }
    fputs("}\n", out);
}

static bool export_pytest_data(FILE *out, const gm_doc *doc, const export_pytest_origin *o,
                               gm_error *err) {
    fputs("# ---- the reproducer ----------------------------------------------------------"
          "-----------\n", out);
    export_pytest_identity(out, doc, o);
    export_pytest_case_scalars(out, &doc->c);
    export_pytest_case_arrays(out, &doc->c);
    if (!export_pytest_init(out, &doc->c, err)) {
        return false;
    }
    fputs("\n# What gmfuzz recorded: REFERENCE is its C emulation of the legacy ops, FUSED the\n"
          "# fused kernel. None: the case has no such buffer.\n", out);
    export_pytest_outputs(out, "REFERENCE", &doc->reference);
    if (o->fused_model != NULL) {
        fputs("# Found on an external target: FUSED is what the fused kernel must write (gmfuzz's\n"
              "# fused model, SPEC section 3); the target wrote TARGET_FUSED.\n", out);
        export_pytest_outputs(out, "FUSED", o->fused_model);
        export_pytest_outputs(out, "TARGET_FUSED", &doc->fused);
    } else {
        export_pytest_outputs(out, "FUSED", &doc->fused);
    }
    export_pytest_target(out, &doc->repro);
    export_pytest_live_columns(out, doc);
    export_pytest_first_difference(out, &doc->repro.verdict.first);
    return true;
}

/* ---- the file ----------------------------------------------------------- */

bool export_pytest_write(FILE *out, const gm_doc *doc, const export_pytest_origin *origin,
                         gm_error *err) {
    if (doc->kind != GM_DOC_REPRO) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: a %s, not a reproducer", origin->source,
                            gm_doc_kind_name(doc->kind));
    }
    const char *text = (const char *)export_pytest_template;
    const char *marker = strstr(text, EXPORT_PYTEST_TEMPLATE_MARKER);
    const char *after = marker != NULL ? strchr(marker, '\n') : NULL;
    if (after == NULL) {
        return gm_error_set(err, GM_ERR_USAGE, "the pytest template has no data marker line");
    }
    export_pytest_header(out, doc, origin);
    fwrite(text, 1, (size_t)(marker - text), out);
    if (!export_pytest_data(out, doc, origin, err)) {
        return false;
    }
    fputs(after + 1, out);
    if (ferror(out)) {
        return gm_error_set(err, GM_ERR_IO, "cannot write the pytest file of %s",
                            origin->source);
    }
    return true;
}
