/* harness_inputs: the comparison of a target's inputs after its call
 * (harness_inputs.h). The bytes are compared first (memcmp: the common case,
 * nothing changed, costs one pass), the elements only when they differ. */
#include "harness_inputs.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gm_oracle.h"

static void harness_inputs_add(harness_inputs_buf *out, size_t *n, const char *name,
                               const void *data, int elem, int64_t count, int64_t cols) {
    if (data != NULL) {
        out[(*n)++] = (harness_inputs_buf){name, data, elem, count > 0 ? (size_t)count : 0,
                                           cols > 0 ? (size_t)cols : 1};
    }
}

size_t harness_inputs_of(const fused_params *p, harness_inputs_buf out[HARNESS_INPUTS_MAX]) {
    size_t n = 0;
    harness_inputs_add(out, &n, "req_pool_indices", p->req_pool_indices, 8, p->bs, 1);
    harness_inputs_add(out, &n, "seq_lens", p->seq_lens, 8, p->bs, 1);
    harness_inputs_add(out, &n, "req_to_token", p->req_to_token, 4,
                       p->req_to_token_rows * p->req_to_token_stride, p->req_to_token_stride);
    harness_inputs_add(out, &n, "swa_mapping", p->swa_mapping, 8, p->swa_mapping_len, 1);
    harness_inputs_add(out, &n, "out_cache_loc", p->out_cache_loc, 8, p->n_out, 1);
    harness_inputs_add(out, &n, "qlens", p->qlens, 4, p->bs, 1);
    return n;
}

static int64_t harness_inputs_at(const void *data, int elem, size_t k) {
    if (elem == 4) {
        int32_t v;
        memcpy(&v, (const char *)data + k * 4, 4);
        return v;
    }
    int64_t v;
    memcpy(&v, (const char *)data + k * 8, 8);
    return v;
}

bool harness_inputs_changed(const harness_inputs_buf *sent, const void *now, char *what,
                            size_t size) {
    size_t bytes = sent->count * (size_t)sent->elem;
    if (bytes == 0 || memcmp(sent->data, now, bytes) == 0) {
        return false;
    }
    size_t first = SIZE_MAX, changed = 0;
    for (size_t k = 0; k < sent->count; k++) {
        if (harness_inputs_at(sent->data, sent->elem, k) != harness_inputs_at(now, sent->elem, k)) {
            first = first == SIZE_MAX ? k : first;
            changed++;
        }
    }
    char where[48];
    if (sent->cols > 1) {
        snprintf(where, sizeof where, "[%zu][%zu]", first / sent->cols, first % sent->cols);
    } else {
        snprintf(where, sizeof where, "[%zu]", first);
    }
    snprintf(what, size, "%s%s: sent %" PRId64 ", now %" PRId64 " (%zu of %zu elements changed)",
             sent->name, where, harness_inputs_at(sent->data, sent->elem, first),
             harness_inputs_at(now, sent->elem, first), changed, sent->count);
    return true;
}

bool harness_inputs_launch_changed(const fused_params *sent, const fused_params *placed,
                                   uintptr_t shift, char *what, size_t size) {
    harness_inputs_buf in[HARNESS_INPUTS_MAX], got[HARNESS_INPUTS_MAX];
    size_t n = harness_inputs_of(sent, in);
    if (harness_inputs_of(placed, got) != n) {
        return false; /* not the same launch */
    }
    for (size_t i = 0; i < n; i++) {
        const void *now = (const void *)((uintptr_t)got[i].data + shift);
        if (harness_inputs_changed(&in[i], now, what, size)) {
            return true;
        }
    }
    return false;
}

void harness_inputs_format(char *error, size_t size, const char *what) {
    snprintf(error, size, GM_TARGET_WROTE_INPUT_PREFIX "%s", what);
}

void harness_inputs_report(gm_outputs *out, const char *what) {
    gm_outputs_set_error(out, GM_TARGET_WROTE_INPUT_PREFIX "%s", what);
}

bool harness_inputs_is_report(const char *error) {
    return error != NULL &&
           strncmp(error, GM_TARGET_WROTE_INPUT_PREFIX, strlen(GM_TARGET_WROTE_INPUT_PREFIX)) == 0;
}
