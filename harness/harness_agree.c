#include "harness.h"

#include <inttypes.h>
#include <stdio.h>

#include "gm_oracle.h"

/* Compares `other` with `first`; false with a message on a difference. */
static bool harness_agree_pair(const gm_case *c, harness_backend *fb, const gm_outputs *first,
                               harness_backend *ob, const gm_outputs *other,
                               harness_agree_outcome *out) {
    char a[HARNESS_TARGET_PATH_MAX + 200], b[HARNESS_TARGET_PATH_MAX + 200];
    harness_target_format(harness_backend_spec(fb), a, sizeof a);
    harness_target_format(harness_backend_spec(ob), b, sizeof b);
    if ((first->error != NULL) != (other->error != NULL)) {
        snprintf(out->message, sizeof out->message, "%.120s: %.120s; %.120s: %.120s", a,
                 first->error ? first->error : "in bounds", b,
                 other->error ? other->error : "in bounds");
        return false;
    }
    if (first->error != NULL) {
        return true;
    }
    gm_verdict v;
    gm_oracle_compare_buffers(c, first, other, GM_COMPARE_STRICT, &v);
    if (v.status == GM_STATUS_MATCH) {
        return true;
    }
    snprintf(out->message, sizeof out->message,
             "%.150s vs %.150s: %zu elements differ, first %s[%zu]%s: %" PRId64 " vs %" PRId64, a, b,
             v.n_differences, gm_buf_name(v.first.buf), v.first.index[0],
             v.first.rank == 2 ? "[..]" : "", v.first.reference, v.first.fused);
    return false;
}

bool harness_agree_case(harness_backend *const *backends, size_t n, const gm_case *c,
                        harness_agree_outcome *out, gm_error *err) {
    out->agreed = true;
    out->out_of_bounds = false;
    out->message[0] = '\0';
    gm_outputs first, other;
    gm_outputs_init(&first);
    gm_outputs_init(&other);
    bool ran = n == 0 || harness_backend_run(backends[0], c, &first, err);
    out->out_of_bounds = ran && first.error != NULL;
    for (size_t i = 1; ran && out->agreed && i < n; i++) {
        ran = harness_backend_run(backends[i], c, &other, err);
        out->agreed = !ran || harness_agree_pair(c, backends[0], &first, backends[i], &other, out);
    }
    gm_outputs_free(&first);
    gm_outputs_free(&other);
    return ran;
}
