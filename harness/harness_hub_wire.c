#include "harness_hub_wire.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "harness_wire.h"
#include "harness_wire_case.h"

bool harness_hub_wire_address(const char *name, void *sockaddr_un, unsigned *len) {
    struct sockaddr_un *a = sockaddr_un;
    size_t n = strlen(name);
    if (n == 0 || n + 1 > sizeof a->sun_path) {
        return false;
    }
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    memcpy(a->sun_path + 1, name, n); /* sun_path[0] == 0: the abstract namespace */
    *len = (unsigned)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
    return true;
}

#define HARNESS_HUB_WIRE_NO_STRING 0xffffffffu

/* A cursor over a received payload: every read checks the bounds. */
typedef struct {
    const char *p;
    size_t len, at;
    bool bad;
} harness_hub_wire_reader;

static const char *harness_hub_wire_take(harness_hub_wire_reader *r, size_t n) {
    if (r->bad || n > r->len - r->at) {
        r->bad = true;
        return NULL;
    }
    const char *p = r->p + r->at;
    r->at += n;
    return p;
}

/* A little-endian unsigned integer of `bytes` (4 or 8) bytes; 0 past the end. */
static uint64_t harness_hub_wire_uint(harness_hub_wire_reader *r, size_t bytes) {
    const char *p = harness_hub_wire_take(r, bytes);
    if (p == NULL) {
        return 0;
    }
    if (bytes == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static uint32_t harness_hub_wire_u32(harness_hub_wire_reader *r) {
    return (uint32_t)harness_hub_wire_uint(r, 4);
}
static uint64_t harness_hub_wire_u64(harness_hub_wire_reader *r) {
    return harness_hub_wire_uint(r, 8);
}

static char *harness_hub_wire_put(char *at, const void *data, size_t n) {
    memcpy(at, data, n);
    return at + n;
}

/* ---- HELLO ---------------------------------------------------------------- */

static void harness_hub_wire_fields(const gm_target_record *t, char *const **fields) {
    static char *const none = NULL;
    for (int k = 0; k < 8; k++) {
        fields[k] = &none;
    }
    if (t != NULL) {
        char *const *f[8] = {&t->spec, &t->kind, &t->module, &t->function,
                             &t->file, &t->sha256, &t->version, &t->device};
        memcpy(fields, f, sizeof f);
    }
}

bool harness_hub_wire_hello(const gm_target_record *identity, uint32_t flags, char **out,
                            size_t *len, gm_error *err) {
    char *const *fields[8];
    harness_hub_wire_fields(identity, fields);
    size_t total = 12;
    for (int k = 0; k < 8; k++) {
        total += 4 + (*fields[k] ? strlen(*fields[k]) : 0);
    }
    char *p = malloc(total), *at = p;
    if (p == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for the hub's HELLO");
    }
    uint32_t version = HARNESS_HUB_VERSION, has = identity != NULL;
    at = harness_hub_wire_put(at, &version, 4);
    at = harness_hub_wire_put(at, &has, 4);
    at = harness_hub_wire_put(at, &flags, 4);
    for (int k = 0; k < 8; k++) {
        const char *s = *fields[k];
        uint32_t n = s ? (uint32_t)strlen(s) : HARNESS_HUB_WIRE_NO_STRING;
        at = harness_hub_wire_put(at, &n, 4);
        at = s ? harness_hub_wire_put(at, s, n) : at;
    }
    *out = p;
    *len = (size_t)(at - p);
    return true;
}

static char *harness_hub_wire_string(harness_hub_wire_reader *r) {
    uint32_t n = harness_hub_wire_u32(r);
    if (n == HARNESS_HUB_WIRE_NO_STRING || r->bad) {
        return NULL;
    }
    const char *s = harness_hub_wire_take(r, n);
    char *copy = s ? malloc((size_t)n + 1) : NULL;
    if (copy != NULL) {
        memcpy(copy, s, n);
        copy[n] = '\0';
    }
    return copy;
}

bool harness_hub_wire_read_hello(const char *p, size_t len, bool *has, gm_target_record *out,
                                 uint32_t *flags, gm_error *err) {
    harness_hub_wire_reader r = {.p = p, .len = len};
    memset(out, 0, sizeof *out);
    uint32_t version = harness_hub_wire_u32(&r);
    *has = harness_hub_wire_u32(&r) != 0;
    *flags = harness_hub_wire_u32(&r);
    char **fields[8] = {&out->spec, &out->kind,   &out->module,  &out->function,
                        &out->file, &out->sha256, &out->version, &out->device};
    for (int k = 0; k < 8; k++) {
        *fields[k] = harness_hub_wire_string(&r);
    }
    if (r.bad || version != HARNESS_HUB_VERSION) {
        gm_target_record_free(out);
        return gm_error_set(err, GM_ERR_DEVICE,
                            "target hub: HELLO of version %u (this gmfuzz speaks %u), or malformed",
                            version, HARNESS_HUB_VERSION);
    }
    return true;
}

/* ---- BATCH ---------------------------------------------------------------- */

char *harness_hub_wire_batch(const gm_case *const *cases, size_t n, double limit_s, size_t *len) {
    char **enc = calloc(n ? n : 1, sizeof *enc);
    size_t *sizes = calloc(n ? n : 1, sizeof *sizes), total = 12;
    bool ok = enc != NULL && sizes != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        enc[i] = harness_wire_case_encode(cases[i], &sizes[i]);
        ok = enc[i] != NULL;
        total += 8 + sizes[i];
    }
    char *p = ok ? malloc(total) : NULL, *at = p;
    if (p != NULL) {
        uint32_t count = (uint32_t)n;
        at = harness_hub_wire_put(at, &count, 4);
        at = harness_hub_wire_put(at, &limit_s, 8);
        for (size_t i = 0; i < n; i++) {
            uint64_t size = sizes[i];
            at = harness_hub_wire_put(at, &size, 8);
            at = harness_hub_wire_put(at, enc[i], sizes[i]);
        }
        *len = total;
    }
    for (size_t i = 0; enc != NULL && i < n; i++) {
        free(enc[i]);
    }
    free(enc);
    free(sizes);
    return p;
}

bool harness_hub_wire_each_case(const char *p, size_t len, void *ctx, int owner, double *limit_s,
                                bool (*add)(void *ctx, int owner, const char *bytes, size_t len)) {
    harness_hub_wire_reader r = {.p = p, .len = len};
    uint32_t n = harness_hub_wire_u32(&r);
    const char *limit = harness_hub_wire_take(&r, 8);
    if (!r.bad) {
        memcpy(limit_s, limit, 8);
    }
    for (uint32_t i = 0; i < n && !r.bad; i++) {
        uint64_t size = harness_hub_wire_u64(&r);
        const char *bytes = harness_hub_wire_take(&r, size);
        r.bad = r.bad || !add(ctx, owner, bytes, size);
    }
    return !r.bad && r.at == r.len;
}

/* ---- ANSWERS -------------------------------------------------------------- */

/* Both kinds of answers begin alike: u32 answers, u32 restarts after a
 * crash, u32 after a hang; and each answer with u8 status, u32 compiles,
 * u32 loads, f64 their seconds (the target's JIT), u32 length and the
 * message. */
static char *harness_hub_wire_put_head(char *at, uint32_t count, harness_backend_restarts caused) {
    at = harness_hub_wire_put(at, &count, 4);
    at = harness_hub_wire_put(at, &caused.crashed, 4);
    return harness_hub_wire_put(at, &caused.hung, 4);
}

static uint32_t harness_hub_wire_take_head(harness_hub_wire_reader *r,
                                           harness_backend_restarts *caused) {
    uint32_t count = harness_hub_wire_u32(r);
    caused->crashed = harness_hub_wire_u32(r);
    caused->hung = harness_hub_wire_u32(r);
    return count;
}

static size_t harness_hub_wire_result_size(const harness_pycall_result *res) {
    return 1 + 16 + 4 + strlen(res->message);
}

static char *harness_hub_wire_put_result(char *at, const harness_pycall_result *res) {
    uint8_t status = (uint8_t)res->status;
    uint32_t mlen = (uint32_t)strlen(res->message);
    at = harness_hub_wire_put(at, &status, 1);
    at = harness_hub_wire_put(at, &res->compiles, 4);
    at = harness_hub_wire_put(at, &res->loads, 4);
    at = harness_hub_wire_put(at, &res->jit_s, 8);
    at = harness_hub_wire_put(at, &mlen, 4);
    return harness_hub_wire_put(at, res->message, mlen);
}

static void harness_hub_wire_take_result(harness_hub_wire_reader *r, harness_pycall_result *res) {
    const char *status = harness_hub_wire_take(r, 1);
    res->compiles = harness_hub_wire_u32(r);
    res->loads = harness_hub_wire_u32(r);
    const char *seconds = harness_hub_wire_take(r, 8);
    uint32_t mlen = harness_hub_wire_u32(r);
    const char *message = harness_hub_wire_take(r, mlen);
    if (r->bad || (uint8_t)*status > HARNESS_PYCALL_HUNG) {
        r->bad = true;
        return;
    }
    res->status = (harness_pycall_status)(uint8_t)*status;
    memcpy(&res->jit_s, seconds, 8);
    snprintf(res->message, sizeof res->message, "%.*s", (int)mlen, message);
}

bool harness_hub_wire_send_answers(int fd, const harness_pycall_result *results,
                                   const gm_outputs *outs, const int *owner, size_t n, int who,
                                   harness_backend_restarts caused) {
    char **enc = calloc(n ? n : 1, sizeof *enc);
    size_t *sizes = calloc(n ? n : 1, sizeof *sizes), total = 12;
    uint32_t count = 0;
    bool ok = enc != NULL && sizes != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        if (owner[i] == who) {
            enc[i] = harness_wire_case_outputs_encode(&outs[i], &sizes[i]);
            ok = enc[i] != NULL;
            total += harness_hub_wire_result_size(&results[i]) + 8 + sizes[i];
            count++;
        }
    }
    char *p = ok ? malloc(total) : NULL, *at = p;
    if (p != NULL) {
        at = harness_hub_wire_put_head(at, count, caused);
        for (size_t i = 0; i < n; i++) {
            if (owner[i] != who) {
                continue;
            }
            uint64_t size = sizes[i];
            at = harness_hub_wire_put_result(at, &results[i]);
            at = harness_hub_wire_put(at, &size, 8);
            at = harness_hub_wire_put(at, enc[i], sizes[i]);
        }
    }
    ok = p != NULL && harness_wire_send(fd, HARNESS_WIRE_ANSWERS, p, total);
    for (size_t i = 0; enc != NULL && i < n; i++) {
        free(enc[i]);
    }
    free(enc);
    free(sizes);
    free(p);
    return ok;
}

static void harness_hub_wire_read_one(harness_hub_wire_reader *r, harness_pycall_result *res,
                                      gm_outputs *out) {
    harness_hub_wire_take_result(r, res);
    uint64_t size = harness_hub_wire_u64(r);
    const char *bytes = harness_hub_wire_take(r, size);
    r->bad = r->bad || (res->status == HARNESS_PYCALL_RETURNED &&
                        !harness_wire_case_outputs_decode(bytes, size, out));
}

bool harness_hub_wire_read_answers(const char *p, size_t len, harness_pycall_result *results,
                                   gm_outputs *const *outs, size_t n,
                                   harness_backend_restarts *caused, gm_error *err) {
    harness_hub_wire_reader r = {.p = p, .len = len};
    uint32_t count = harness_hub_wire_take_head(&r, caused);
    r.bad = r.bad || count != n;
    for (size_t i = 0; i < n && !r.bad; i++) {
        harness_hub_wire_read_one(&r, &results[i], outs[i]);
    }
    if (r.bad || r.at != r.len) {
        return gm_error_set(err, GM_ERR_DEVICE,
                            "target hub: malformed ANSWERS (%u answers for %zu cases)", count, n);
    }
    return true;
}

/* ---- SHARE, PLACED, PLACED_ANSWERS --------------------------------------- */

bool harness_hub_wire_read_share(const char *p, size_t len, uint64_t *size) {
    harness_hub_wire_reader r = {.p = p, .len = len};
    *size = harness_hub_wire_u64(&r);
    return !r.bad && r.at == r.len;
}

/* A placed launch as 28 u64: the span, the twelve buffers' offsets (0:
 * absent) in fused_buf order, then the sizes and scalars. */
#define HARNESS_HUB_WIRE_LAUNCH_WORDS 28

static void harness_hub_wire_launch_words(const harness_layout_launch *l, uint64_t *w) {
    const fused_params *p = &l->params;
    const void *bufs[FUSED_BUF_COUNT] = {
        p->req_pool_indices, p->seq_lens,      p->req_to_token, p->swa_mapping,
        p->out_cache_loc,    p->qlens,         p->cache_seqlens, p->cu_seqlens_k,
        p->cu_seqlens_q,     p->page_table,    p->swa_page_table, p->swa_out_cache_loc,
    };
    size_t k = 0;
    w[k++] = l->span.begin;
    w[k++] = l->span.outputs_at;
    w[k++] = l->span.status_at;
    w[k++] = l->span.end;
    for (int b = 0; b < FUSED_BUF_COUNT; b++) {
        w[k++] = (uint64_t)(uintptr_t)bufs[b];
    }
    const int64_t scalars[12] = {p->req_to_token_rows, p->req_to_token_stride, p->swa_mapping_len,
                                 p->n_out,             p->page_table_stride,   p->out_len,
                                 p->bs,                p->seqlen_offset,       p->max_seq_pages,
                                 p->page_size,         p->q_stride,            (int64_t)p->q_mode};
    for (int j = 0; j < 12; j++) {
        w[k++] = (uint64_t)scalars[j];
    }
}

static void harness_hub_wire_launch_of(const uint64_t *w, harness_layout_launch *l) {
    fused_params *p = &l->params;
    memset(l, 0, sizeof *l);
    l->span = (harness_layout_span){w[0], w[1], w[2], w[3]};
    const uint64_t *b = w + 4, *s = w + 4 + FUSED_BUF_COUNT;
    p->req_pool_indices = (const int64_t *)(uintptr_t)b[FUSED_BUF_REQ_POOL_INDICES];
    p->seq_lens = (const int64_t *)(uintptr_t)b[FUSED_BUF_SEQ_LENS];
    p->req_to_token = (const int32_t *)(uintptr_t)b[FUSED_BUF_REQ_TO_TOKEN];
    p->swa_mapping = (const int64_t *)(uintptr_t)b[FUSED_BUF_SWA_MAPPING];
    p->out_cache_loc = (const int64_t *)(uintptr_t)b[FUSED_BUF_OUT_CACHE_LOC];
    p->qlens = (const int32_t *)(uintptr_t)b[FUSED_BUF_QLENS];
    p->cache_seqlens = (int32_t *)(uintptr_t)b[FUSED_BUF_CACHE_SEQLENS];
    p->cu_seqlens_k = (int32_t *)(uintptr_t)b[FUSED_BUF_CU_SEQLENS_K];
    p->cu_seqlens_q = (int32_t *)(uintptr_t)b[FUSED_BUF_CU_SEQLENS_Q];
    p->page_table = (int32_t *)(uintptr_t)b[FUSED_BUF_PAGE_TABLE];
    p->swa_page_table = (int32_t *)(uintptr_t)b[FUSED_BUF_SWA_PAGE_TABLE];
    p->swa_out_cache_loc = (int64_t *)(uintptr_t)b[FUSED_BUF_SWA_OUT_CACHE_LOC];
    p->req_to_token_rows = (int64_t)s[0];
    p->req_to_token_stride = (int64_t)s[1];
    p->swa_mapping_len = (int64_t)s[2];
    p->n_out = (int64_t)s[3];
    p->page_table_stride = (int64_t)s[4];
    p->out_len = (int64_t)s[5];
    p->bs = (int64_t)s[6];
    p->seqlen_offset = (int64_t)s[7];
    p->max_seq_pages = (int64_t)s[8];
    p->page_size = (int64_t)s[9];
    p->q_stride = (int64_t)s[10];
    p->q_mode = (fused_q_mode)(int64_t)s[11];
}

char *harness_hub_wire_placed(const harness_layout_launch *launches, size_t n, size_t *len) {
    size_t total = 4 + n * HARNESS_HUB_WIRE_LAUNCH_WORDS * 8;
    char *p = malloc(total), *at = p;
    if (p == NULL) {
        return NULL;
    }
    uint32_t count = (uint32_t)n;
    at = harness_hub_wire_put(at, &count, 4);
    for (size_t i = 0; i < n; i++) {
        uint64_t w[HARNESS_HUB_WIRE_LAUNCH_WORDS];
        harness_hub_wire_launch_words(&launches[i], w);
        at = harness_hub_wire_put(at, w, sizeof w);
    }
    *len = total;
    return p;
}

bool harness_hub_wire_each_placed(const char *p, size_t len, void *ctx, int owner,
                                  bool (*add)(void *ctx, int owner,
                                              const harness_layout_launch *l)) {
    harness_hub_wire_reader r = {.p = p, .len = len};
    uint32_t n = harness_hub_wire_u32(&r);
    for (uint32_t i = 0; i < n && !r.bad; i++) {
        uint64_t w[HARNESS_HUB_WIRE_LAUNCH_WORDS];
        for (int k = 0; k < HARNESS_HUB_WIRE_LAUNCH_WORDS; k++) {
            w[k] = harness_hub_wire_u64(&r);
        }
        harness_layout_launch l;
        harness_hub_wire_launch_of(w, &l);
        r.bad = r.bad || (w[4 + FUSED_BUF_COUNT + 11] > FUSED_Q_STRIDED) || !add(ctx, owner, &l);
    }
    return !r.bad && r.at == r.len;
}

bool harness_hub_wire_send_placed_answers(int fd, const harness_hub_placed_answer *answers,
                                          const int *owner, size_t n, int who,
                                          harness_backend_restarts caused) {
    size_t total = 12;
    uint32_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (owner[i] == who) {
            total +=
                harness_hub_wire_result_size(&answers[i].result) + 4 + strlen(answers[i].error);
            count++;
        }
    }
    char *p = malloc(total), *at = p;
    if (p == NULL) {
        return false;
    }
    at = harness_hub_wire_put_head(at, count, caused);
    for (size_t i = 0; i < n; i++) {
        if (owner[i] != who) {
            continue;
        }
        uint32_t elen = (uint32_t)strlen(answers[i].error);
        at = harness_hub_wire_put_result(at, &answers[i].result);
        at = harness_hub_wire_put(at, &elen, 4);
        at = harness_hub_wire_put(at, answers[i].error, elen);
    }
    bool ok = harness_wire_send(fd, HARNESS_WIRE_PLACED_ANSWERS, p, total);
    free(p);
    return ok;
}

bool harness_hub_wire_read_placed_answers(const char *p, size_t len,
                                          harness_hub_placed_answer *answers, size_t n,
                                          harness_backend_restarts *caused, gm_error *err) {
    harness_hub_wire_reader r = {.p = p, .len = len};
    uint32_t count = harness_hub_wire_take_head(&r, caused);
    r.bad = r.bad || count != n;
    for (size_t i = 0; i < n && !r.bad; i++) {
        harness_hub_wire_take_result(&r, &answers[i].result);
        uint32_t elen = harness_hub_wire_u32(&r);
        const char *error = harness_hub_wire_take(&r, elen);
        if (!r.bad) {
            snprintf(answers[i].error, sizeof answers[i].error, "%.*s", (int)elen, error);
        }
    }
    if (r.bad || r.at != r.len) {
        return gm_error_set(err, GM_ERR_DEVICE,
                            "target hub: malformed PLACED_ANSWERS (%u answers for %zu cases)",
                            count, n);
    }
    return true;
}
