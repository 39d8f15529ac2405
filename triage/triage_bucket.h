/* triage_bucket: a finding's root-cause key, the first level of triage.
 *
 * A signature (mode x classes x buffers) changes with every accepted
 * difference that happens to co-occur, so one bug shows as hundreds of
 * signatures. A bucket keeps only what is unexplained, as ClusterFuzz's
 * crash state keeps a few stable frames of a stack:
 *
 *   "<what>|<where>|<how>"
 *
 *   a difference no class explains (the first one, in buffer order then
 *   row-major, as a stack's top frame; the signature lists every buffer):
 *     what   its buffer; the two page tables are one, "page_tables" (one
 *            row program writes both from one token, and a bug there shows
 *            in one or both by the values it reads); cu_seqlens_q is named
 *            with its path in the mode, "cu_seqlens_q(cumsum)",
 *            "cu_seqlens_q(strided)" or "cu_seqlens_q(preset)", the only
 *            buffer whose rule depends on the mode
 *     where  its region: "live" or "tail" (page-table columns the
 *            attention kernel reads, or not), "slots" or "padding"
 *            (swa_out_cache_loc below num_out_tokens, or not), "head"
 *            (element 0 of a cu_seqlens buffer), "shape" (the buffers'
 *            shapes differ); for the scans (cu_seqlens_k, cu_seqlens_q)
 *            also its rows relative to the case, so that one fault keeps
 *            one key whatever bs (issue 23): "@last" (only the last row
 *            differs), else "@edgeN" (the first row that differs is a
 *            block edge N: 32, 256, 512, 1024, 2048, 4096), else that
 *            row's block range, "@rows<32" ... "@rows<4096", "@rows>=4096"
 *            (keys of the older absolute form, "@rows<1024" and
 *            "@rows>=1024", still cover theirs: triage_bucket_covers)
 *     how    what the fused side wrote against what it should have
 *            written (the prediction of triage_predict, else the reference's
 *            value), over every unexplained element of that buffer:
 *            "value" when any is a wrong value, else "-1" (only in
 *            swa_out_cache_loc, where -1 is the sentinel) when any
 *            involves -1, else "0_or_unwritten" (it wrote 0 or kept the
 *            old contents: alike when those are zeros); in the lengths and
 *            scans, where -1 and 0 mean nothing, always "value"
 *   a run whose inputs break a precondition of SPEC section 3 although
 *   the model compared: "fused_out_of_bounds|undetected|-"
 *   a run whose buffers were not compared:
 *     "<class>|<detail>|-": the class (legacy_raises, fused_out_of_bounds,
 *     unclassified for an out-of-bounds access with no broken
 *     precondition, reference_drift) and what the error names (the
 *     raise's kind and step, the buffer accessed out of bounds);
 *     "target_wrote_input|<input>|<first changed element>", e.g.
 *     "target_wrote_input|req_to_token|[0][0]"; an external target's
 *     other failures (target_*) have keys of their own, triage_target.h
 *   every difference explained:
 *     "class:<class>|<buffer>|predicted": the class and buffer of the first
 *     difference
 *
 * e.g. "cu_seqlens_k|live@rows<32|value", "cu_seqlens_q(cumsum)|live@last|value",
 *      "page_tables|live|0_or_unwritten", "swa_out_cache_loc|padding|-1",
 *      "unclassified|read swa_mapping|-",
 *      "class:stale_tail|page_table|predicted".
 */
#ifndef TRIAGE_BUCKET_H
#define TRIAGE_BUCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_case.h"
#include "harness.h"
#include "triage.h"

/* What the classifier saw while it went over the differences. */
typedef struct {
    unsigned unexplained;   /* bit (1u << gm_buf_id): buffers with an unexplained element
                               (the signature's business; the bucket keeps the first) */
    bool have_first;        /* `first_*` name the first unexplained element */
    gm_buf_id first_id;
    size_t first_flat;
    size_t last_flat;       /* the last unexplained element of that buffer */
    size_t first_width;     /* the buffer's row width (1 for a vector) */
    bool first_shape;       /* the first unexplained buffer differs in shape */
    int relation;           /* over that buffer's unexplained elements (triage_bucket.c) */
    int explained_class;    /* the class of the first explained difference, or -1 */
    gm_buf_id explained_id;
} triage_bucket_seen;

void triage_bucket_seen_init(triage_bucket_seen *s);

/* Notes one differing element: `k` its class (TRIAGE_CLASS_UNCLASSIFIED when
 * nothing explains it); the first of each kind is kept. An unexplained one
 * brings what the fused side wrote (`got`), what it should have (`want`)
 * and the old contents (`prior`); width 0: the buffers' shapes differ. */
void triage_bucket_seen_note(triage_bucket_seen *s, gm_buf_id id, size_t flat, size_t width, int k,
                             int64_t got, int64_t want, int64_t prior);

/* The bucket of a compared run (match or mismatch). */
void triage_bucket_write_compared(const gm_case *c, const harness_run_result *r,
                                  const triage_bucket_seen *s, char *out, size_t size);

/* The bucket of a run whose buffers were not compared, of class `k`
 * (an external target's failure: triage_target.h). */
void triage_bucket_write_uncompared(const gm_case *c, const harness_run_result *r, triage_class k,
                                    char *out, size_t size);

/* A buffer's name in a key: cu_seqlens_q with its path in the mode. */
const char *triage_bucket_buffer_name(const gm_case *c, gm_buf_id id);

/* The "@..." part of a scan's region: rows `first` to `last` (0-based, the
 * first and last that differ) of `rows` (bs), relative to the case.
 * `expected` is the scan's right output (cu_seqlens, bs + 1 entries): a
 * first row at a block edge is "@edgeN" only where the rows before it
 * carry a sum into it. */
void triage_bucket_scan_rows(size_t first, size_t last, size_t rows, const gm_buffer *expected,
                             char *out, size_t size);

/* The differing elements of one buffer, for a "where" that reads alike in
 * every room that compares two outputs (a target against the model,
 * triage_target.c; the C reference against torch, triage_drift.c): the
 * page tables' region and 512-column tile, swa_out_cache_loc's slots or
 * padding and 512-location tile, the scans' rows relative to the case. */
#define TRIAGE_BUCKET_TILE 512 /* the kernels' BLOCK_P and BLOCK_O (docs/KERNEL_ABI.md) */

typedef struct {
    const gm_case *c;
    const gm_outputs *right; /* the outputs held to be right: their cache_seqlens say
                                which cells are live, their scan which rows carry */
    gm_buf_id id;
    size_t width;            /* row width (1 for a vector) */
    size_t count;            /* elements noted */
    size_t first, last;      /* flat index of the first and last noted */
    size_t min_col;          /* the leftmost column noted */
    bool any_live;           /* page tables: one attention reads; swa_out: a slot */
} triage_bucket_span;

/* An empty span of buffer `id`, whose row width `right`'s copy gives. */
void triage_bucket_span_init(triage_bucket_span *s, const gm_case *c, const gm_outputs *right,
                             gm_buf_id id);

/* Notes element `flat` (row-major, in increasing order). */
void triage_bucket_span_note(triage_bucket_span *s, size_t flat);

/* The span's region, "live@cols>=512", "slots", "head", "live@edge1024"... */
void triage_bucket_span_where(const triage_bucket_span *s, char *out, size_t size);

/* Whether two copies of a buffer are both absent, or present in one shape. */
bool triage_bucket_same_shape(const gm_buffer *a, const gm_buffer *b);

/* The low 32 bits as a signed int32, without an implementation-defined cast. */
int64_t triage_bucket_low32(int64_t v);

/* Whether a key a baseline lists covers the bucket `key`: the same key, or
 * one of the form written before issue 23 that stands for it (an absolute
 * scan row range, "<target class>|-|-"; triage_bucket_compat.c). */
bool triage_bucket_covers(const char *listed, const char *key);

#endif
