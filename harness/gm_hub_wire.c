#include "gm_hub_wire.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_hub.h"
#include "gm_wire.h"
#include "gm_wire_case.h"

#define GM_HUB_WIRE_NO_STRING 0xffffffffu

/* A cursor over a received payload: every read checks the bounds. */
typedef struct {
    const char *p;
    size_t len, at;
    bool bad;
} gm_hub_wire_reader;

static const char *gm_hub_wire_take(gm_hub_wire_reader *r, size_t n) {
    if (r->bad || n > r->len - r->at) {
        r->bad = true;
        return NULL;
    }
    const char *p = r->p + r->at;
    r->at += n;
    return p;
}

/* A little-endian unsigned integer of `bytes` (4 or 8) bytes; 0 past the end. */
static uint64_t gm_hub_wire_uint(gm_hub_wire_reader *r, size_t bytes) {
    const char *p = gm_hub_wire_take(r, bytes);
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

static uint32_t gm_hub_wire_u32(gm_hub_wire_reader *r) { return (uint32_t)gm_hub_wire_uint(r, 4); }
static uint64_t gm_hub_wire_u64(gm_hub_wire_reader *r) { return gm_hub_wire_uint(r, 8); }

static char *gm_hub_wire_put(char *at, const void *data, size_t n) {
    memcpy(at, data, n);
    return at + n;
}

/* ---- HELLO ---------------------------------------------------------------- */

static void gm_hub_wire_fields(const gm_target_record *t, char *const **fields) {
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

bool gm_hub_wire_hello(const gm_target_record *identity, char **out, size_t *len, gm_error *err) {
    char *const *fields[8];
    gm_hub_wire_fields(identity, fields);
    size_t total = 8;
    for (int k = 0; k < 8; k++) {
        total += 4 + (*fields[k] ? strlen(*fields[k]) : 0);
    }
    char *p = malloc(total), *at = p;
    if (p == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for the hub's HELLO");
    }
    uint32_t version = GM_HUB_VERSION, has = identity != NULL;
    at = gm_hub_wire_put(at, &version, 4);
    at = gm_hub_wire_put(at, &has, 4);
    for (int k = 0; k < 8; k++) {
        const char *s = *fields[k];
        uint32_t n = s ? (uint32_t)strlen(s) : GM_HUB_WIRE_NO_STRING;
        at = gm_hub_wire_put(at, &n, 4);
        at = s ? gm_hub_wire_put(at, s, n) : at;
    }
    *out = p;
    *len = (size_t)(at - p);
    return true;
}

static char *gm_hub_wire_string(gm_hub_wire_reader *r) {
    uint32_t n = gm_hub_wire_u32(r);
    if (n == GM_HUB_WIRE_NO_STRING || r->bad) {
        return NULL;
    }
    const char *s = gm_hub_wire_take(r, n);
    char *copy = s ? malloc((size_t)n + 1) : NULL;
    if (copy != NULL) {
        memcpy(copy, s, n);
        copy[n] = '\0';
    }
    return copy;
}

bool gm_hub_wire_read_hello(const char *p, size_t len, bool *has, gm_target_record *out,
                            gm_error *err) {
    gm_hub_wire_reader r = {.p = p, .len = len};
    memset(out, 0, sizeof *out);
    uint32_t version = gm_hub_wire_u32(&r);
    *has = gm_hub_wire_u32(&r) != 0;
    char **fields[8] = {&out->spec, &out->kind,   &out->module,  &out->function,
                        &out->file, &out->sha256, &out->version, &out->device};
    for (int k = 0; k < 8; k++) {
        *fields[k] = gm_hub_wire_string(&r);
    }
    if (r.bad || version != GM_HUB_VERSION) {
        gm_target_record_free(out);
        return gm_error_set(err, GM_ERR_DEVICE,
                            "target hub: HELLO of version %u (this gmfuzz speaks %u), or malformed",
                            version, GM_HUB_VERSION);
    }
    return true;
}

/* ---- BATCH ---------------------------------------------------------------- */

char *gm_hub_wire_batch(const gm_case *const *cases, size_t n, size_t *len) {
    char **enc = calloc(n ? n : 1, sizeof *enc);
    size_t *sizes = calloc(n ? n : 1, sizeof *sizes), total = 4;
    bool ok = enc != NULL && sizes != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        enc[i] = gm_wire_case_encode(cases[i], &sizes[i]);
        ok = enc[i] != NULL;
        total += 8 + sizes[i];
    }
    char *p = ok ? malloc(total) : NULL, *at = p;
    if (p != NULL) {
        uint32_t count = (uint32_t)n;
        at = gm_hub_wire_put(at, &count, 4);
        for (size_t i = 0; i < n; i++) {
            uint64_t size = sizes[i];
            at = gm_hub_wire_put(at, &size, 8);
            at = gm_hub_wire_put(at, enc[i], sizes[i]);
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

bool gm_hub_wire_each_case(const char *p, size_t len, void *ctx, int owner,
                           bool (*add)(void *ctx, int owner, const char *bytes, size_t len)) {
    gm_hub_wire_reader r = {.p = p, .len = len};
    uint32_t n = gm_hub_wire_u32(&r);
    for (uint32_t i = 0; i < n && !r.bad; i++) {
        uint64_t size = gm_hub_wire_u64(&r);
        const char *bytes = gm_hub_wire_take(&r, size);
        r.bad = r.bad || !add(ctx, owner, bytes, size);
    }
    return !r.bad && r.at == r.len;
}

/* ---- ANSWERS -------------------------------------------------------------- */

bool gm_hub_wire_send_answers(int fd, const gm_pycall_result *results, const gm_outputs *outs,
                              const int *owner, size_t n, int who, gm_backend_restarts caused) {
    char **enc = calloc(n ? n : 1, sizeof *enc);
    size_t *sizes = calloc(n ? n : 1, sizeof *sizes), total = 12;
    uint32_t count = 0;
    bool ok = enc != NULL && sizes != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        if (owner[i] == who) {
            enc[i] = gm_wire_outputs_encode(&outs[i], &sizes[i]);
            ok = enc[i] != NULL;
            total += 1 + 4 + strlen(results[i].message) + 8 + sizes[i];
            count++;
        }
    }
    char *p = ok ? malloc(total) : NULL, *at = p;
    if (p != NULL) {
        at = gm_hub_wire_put(at, &count, 4);
        at = gm_hub_wire_put(at, &caused.crashed, 4);
        at = gm_hub_wire_put(at, &caused.hung, 4);
        for (size_t i = 0; i < n; i++) {
            if (owner[i] != who) {
                continue;
            }
            uint8_t status = (uint8_t)results[i].status;
            uint32_t mlen = (uint32_t)strlen(results[i].message);
            uint64_t size = sizes[i];
            at = gm_hub_wire_put(at, &status, 1);
            at = gm_hub_wire_put(at, &mlen, 4);
            at = gm_hub_wire_put(at, results[i].message, mlen);
            at = gm_hub_wire_put(at, &size, 8);
            at = gm_hub_wire_put(at, enc[i], sizes[i]);
        }
    }
    ok = p != NULL && gm_wire_send(fd, GM_WIRE_ANSWERS, p, total);
    for (size_t i = 0; enc != NULL && i < n; i++) {
        free(enc[i]);
    }
    free(enc);
    free(sizes);
    free(p);
    return ok;
}

static void gm_hub_wire_read_one(gm_hub_wire_reader *r, gm_pycall_result *res, gm_outputs *out) {
    const char *status = gm_hub_wire_take(r, 1);
    uint32_t mlen = gm_hub_wire_u32(r);
    const char *message = gm_hub_wire_take(r, mlen);
    uint64_t size = gm_hub_wire_u64(r);
    const char *bytes = gm_hub_wire_take(r, size);
    if (r->bad || (uint8_t)*status > GM_PYCALL_HUNG) {
        r->bad = true;
        return;
    }
    res->status = (gm_pycall_status)(uint8_t)*status;
    snprintf(res->message, sizeof res->message, "%.*s", (int)mlen, message);
    r->bad = res->status == GM_PYCALL_RETURNED && !gm_wire_outputs_decode(bytes, size, out);
}

bool gm_hub_wire_read_answers(const char *p, size_t len, gm_pycall_result *results,
                              gm_outputs *const *outs, size_t n, gm_backend_restarts *caused,
                              gm_error *err) {
    gm_hub_wire_reader r = {.p = p, .len = len};
    uint32_t count = gm_hub_wire_u32(&r);
    caused->crashed = gm_hub_wire_u32(&r);
    caused->hung = gm_hub_wire_u32(&r);
    r.bad = r.bad || count != n;
    for (size_t i = 0; i < n && !r.bad; i++) {
        gm_hub_wire_read_one(&r, &results[i], outs[i]);
    }
    if (r.bad || r.at != r.len) {
        return gm_error_set(err, GM_ERR_DEVICE,
                            "target hub: malformed ANSWERS (%u answers for %zu cases)", count, n);
    }
    return true;
}
