/* triage_target: the buckets of an external target's failures (the format:
 * triage_target.h). A deviation is judged against gmfuzz's fused model,
 * run here again from the case (the run keeps only the target's buffers
 * and the reference's), so that a reproducer read back years later gets
 * the bucket its campaign gave it.
 */
#include "triage_target.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triage_bucket.h"

/* The relations of "how", weakest first: the strongest seen wins. */
enum {
    TRIAGE_TARGET_ZERO = 1,
    TRIAGE_TARGET_STALE,
    TRIAGE_TARGET_MINUS_ONE,
    TRIAGE_TARGET_OFF_BY_ONE,
    TRIAGE_TARGET_LOW32,
    TRIAGE_TARGET_OTHER
};

static const char *const triage_target_relations[] = {
    "-", "0_or_unwritten", "stale", "-1", "off_by_one", "low32", "other",
};

/* What the deviating elements of the first deviating buffer show (where:
 * triage_bucket_span, the model held right). */
typedef struct {
    const harness_run_result *r;
    triage_bucket_span span;
    int relation;
    bool legacy_ok;         /* reference outputs to hold the target's against */
    bool unlike_legacy;     /* one holds another value than the reference wrote */
    bool like_legacy;       /* one holds the value the reference wrote */
} triage_target_seen;

static int triage_target_relation(int64_t got, int64_t want, int64_t prior) {
    __int128 gap = (__int128)got - want;
    if (got == prior) {
        /* the old contents kept, zero or not: one relation, so that a cell
         * left unwritten does not split by what the case held before */
        return TRIAGE_TARGET_STALE;
    }
    if (got == 0) {
        return TRIAGE_TARGET_ZERO;
    }
    if (gap == 1 || gap == -1) {
        return TRIAGE_TARGET_OFF_BY_ONE; /* a -1 for a 0 too: a floor for a truncation */
    }
    if (got == -1) {
        return TRIAGE_TARGET_MINUS_ONE;
    }
    bool wide = want < INT32_MIN || want > INT32_MAX;
    return wide && got == triage_bucket_low32(want) ? TRIAGE_TARGET_LOW32 : TRIAGE_TARGET_OTHER;
}

/* Whether the target's value is the reference's. Where the reference holds
 * the old contents (legacy did not write there) a different value says
 * nothing of drift: legacy's stale tail is no semantics to drift to. */
static void triage_target_legacy(triage_target_seen *s, size_t flat, int64_t got, int64_t prior) {
    if (!s->legacy_ok) {
        return;
    }
    int64_t ref = gm_buffer_get(&s->r->reference.buf[s->span.id], flat);
    if (ref == got && ref != prior) {
        s->like_legacy = true;
    } else if (ref != got && ref != prior) {
        s->unlike_legacy = true;
    }
}

/* Notes element `flat`, which deviates: the model wrote `want`, the target
 * `got`, the buffer held `prior`. */
static void triage_target_note(triage_target_seen *s, size_t flat, int64_t got, int64_t want,
                               int64_t prior) {
    gm_buf_id id = s->span.id;
    const gm_buffer *ref = &s->r->reference.buf[id];
    if (s->span.count == 0) {
        s->legacy_ok = s->r->reference.error == NULL && ref->present &&
                       gm_buffer_count(ref) == gm_buffer_count(&s->r->fused.buf[id]);
    }
    triage_bucket_span_note(&s->span, flat);
    triage_target_legacy(s, flat, got, prior);
    int rel = triage_target_relation(got, want, prior);
    s->relation = rel > s->relation ? rel : s->relation;
}

/* Goes over buffer `id`: false when the target wrote what the model did. */
static bool triage_target_scan(triage_target_seen *s, const gm_outputs *model,
                               const gm_outputs *prior) {
    gm_buf_id id = s->span.id;
    const gm_buffer *want = &model->buf[id], *got = &s->r->fused.buf[id];
    const gm_buffer *old = &prior->buf[id];
    size_t n = gm_buffer_count(want);
    for (size_t k = 0; k < n; k++) {
        int64_t w = gm_buffer_get(want, k), g = gm_buffer_get(got, k);
        if (w != g) {
            triage_target_note(s, k, g, w, gm_buffer_get(old, k));
        }
    }
    return s->relation != 0;
}

/* The first buffer in which the target deviates from `model`, as a key. */
static void triage_target_deviation(const gm_case *c, const harness_run_result *r,
                                    const gm_outputs *model, const gm_outputs *prior, char *out,
                                    size_t size) {
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        triage_target_seen s = {.r = r};
        triage_bucket_span_init(&s.span, c, model, (gm_buf_id)id);
        const char *what = triage_bucket_buffer_name(c, (gm_buf_id)id);
        if (!triage_bucket_same_shape(&model->buf[id], &r->fused.buf[id])) {
            snprintf(out, size, "target_deviates:%s|shape|-", what);
            return;
        }
        if (model->buf[id].present && triage_target_scan(&s, model, prior)) {
            char where[64];
            triage_bucket_span_where(&s.span, where, sizeof where);
            snprintf(out, size, "target_deviates:%s|%s|%s%s", what, where,
                     triage_target_relations[s.relation],
                     s.like_legacy && !s.unlike_legacy ? "=legacy" : "");
            return;
        }
    }
    snprintf(out, size, "target_deviates|-|-"); /* the model now agrees: say no more */
}

static void triage_target_deviates(const gm_case *c, const harness_run_result *r, char *out,
                                   size_t size) {
    gm_outputs model, prior;
    gm_outputs_init(&model);
    gm_outputs_init(&prior);
    gm_error err = {0};
    bool safe = false;
    if (harness_backend_run_model(c, &model, &safe, &err) && safe &&
        gm_outputs_prepare(&prior, c, &err)) {
        triage_target_deviation(c, r, &model, &prior, out, size);
    } else {
        snprintf(out, size, "target_deviates|-|-"); /* out of memory: the class alone */
    }
    gm_outputs_free(&model);
    gm_outputs_free(&prior);
}

/* Copies `n` bytes of `from` into a key part: '|' and spaces kept out. */
static void triage_target_part(const char *from, size_t n, char *out, size_t size) {
    n = n < size ? n : size - 1;
    for (size_t k = 0; k < n; k++) {
        out[k] = from[k] == '|' || from[k] == ' ' ? '_' : from[k];
    }
    out[n] = '\0';
    if (n == 0 && size > 1) {
        snprintf(out, size, "-");
    }
}

/* "target_raised: TYPE: [FILE:LINE FUNCTION] MESSAGE": TYPE and FILE:FUNCTION. */
static void triage_target_raised(const char *error, char *out, size_t size) {
    size_t prefix = strlen(GM_TARGET_RAISED_PREFIX);
    const char *type = strncmp(error, GM_TARGET_RAISED_PREFIX, prefix) == 0 ? error + prefix : "";
    size_t type_len = strcspn(type, ":");
    char kind[96], frame[160] = "-";
    triage_target_part(type, type_len, kind, sizeof kind);
    const char *open = type[type_len] == ':' ? type + type_len + 1 : NULL;
    open = open != NULL && open[0] == ' ' && open[1] == '[' ? open + 2 : NULL;
    const char *colon = open != NULL ? strchr(open, ':') : NULL;
    const char *space = colon != NULL ? strchr(colon, ' ') : NULL;
    const char *close = space != NULL ? strchr(space, ']') : NULL;
    if (close != NULL && memchr(open, ' ', (size_t)(colon - open)) == NULL) {
        char file[96], function[96];
        triage_target_part(open, (size_t)(colon - open), file, sizeof file);
        triage_target_part(space + 1, (size_t)(close - space - 1), function, sizeof function);
        snprintf(frame, sizeof frame, "%s:%s", file, function);
    }
    snprintf(out, size, "target_raised|%s|%s", kind, frame);
}

/* The signal's name (the common ones), else "signal_N". */
static void triage_target_signal(int sig, char *out, size_t size) {
    static const struct {
        int number;
        const char *name;
    } names[] = {{4, "SIGILL"}, {5, "SIGTRAP"}, {6, "SIGABRT"}, {7, "SIGBUS"},  {8, "SIGFPE"},
                 {9, "SIGKILL"}, {11, "SIGSEGV"}, {13, "SIGPIPE"}, {15, "SIGTERM"}};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (names[k].number == sig) {
            snprintf(out, size, "%s", names[k].name);
            return;
        }
    }
    snprintf(out, size, "signal_%d", sig);
}

/* How the worker died, from the words harness_pyworker and harness_worker use. */
static void triage_target_crashed(const char *error, char *out, size_t size) {
    const char *signal = strstr(error, "killed by signal ");
    const char *exited = strstr(error, "exited with status ");
    char how[32] = "-";
    if (signal != NULL) {
        triage_target_signal(atoi(signal + strlen("killed by signal ")), how, sizeof how);
    } else if (exited != NULL) {
        snprintf(how, sizeof how, "exit_%d", atoi(exited + strlen("exited with status ")));
    } else if (strstr(error, "device error") != NULL) {
        snprintf(how, sizeof how, "device_error");
    }
    snprintf(out, size, "target_crashed|%s|-", how);
}

void triage_target_bucket(const gm_case *c, const harness_run_result *r, triage_class k,
                          char *out, size_t size) {
    const char *error = r->fused.error != NULL ? r->fused.error : "";
    switch (k) {
    case TRIAGE_CLASS_TARGET_DEVIATES: triage_target_deviates(c, r, out, size); break;
    case TRIAGE_CLASS_TARGET_RAISED: triage_target_raised(error, out, size); break;
    case TRIAGE_CLASS_TARGET_CRASHED: triage_target_crashed(error, out, size); break;
    default: snprintf(out, size, "%s|-|-", triage_class_name(k)); break;
    }
}
