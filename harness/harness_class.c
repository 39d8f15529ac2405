/* harness_class: the specialization class of a case (harness.h), what a
 * JIT-specializing target compiles one kernel for. */
#include "harness.h"

#include <stdio.h>
#include <string.h>

#include "gm_hash.h"

static uint8_t harness_class_int(int64_t v) {
    uint8_t wide = v < INT32_MIN || v > INT32_MAX ? HARNESS_CLASS_WIDE : 0;
    uint8_t div = v == 1 ? HARNESS_CLASS_ONE : v % 16 == 0 ? HARNESS_CLASS_SIXTEEN
                                                           : HARNESS_CLASS_OTHER;
    return (uint8_t)(div | wide);
}

uint8_t harness_class_of_int(int64_t v) { return harness_class_int(v); }

static uint8_t harness_class_log2_ceil(uint64_t n) {
    uint8_t k = 0;
    while (((uint64_t)1 << k) < n && k < 63) {
        k++;
    }
    return k;
}

static int64_t harness_class_num_out_tokens(const gm_case *c) {
    if (!c->has_swa || !c->swa.has_out_len || c->swa.out_cache_loc == NULL) {
        return 0;
    }
    return (int64_t)(c->swa.n_out < c->swa.out_len ? c->swa.n_out : c->swa.out_len);
}

void harness_class_of(const gm_case *c, harness_class *out) {
    memset(out, 0, sizeof *out);
    int64_t pages = (int64_t)gm_case_max_num_pages(c);
    out->q_mode = c->mode == GM_MODE_DRAFT_EXTEND      ? 1
                  : c->mode == GM_MODE_DRAFT_EXTEND_V2 ? 2
                                                       : 0;
    out->swa_page_table = c->has_swa && c->swa.page_table;
    out->swa_out = c->has_swa && c->swa.has_out_len;
    out->out_cache_loc = c->has_swa && c->swa.out_cache_loc != NULL;
    out->page_size = c->page_size;
    out->bs_log2 = harness_class_log2_ceil(c->bs);
    const int64_t ints[HARNESS_CLASS_INTS] = {
        [HARNESS_CLASS_BS] = (int64_t)c->bs,
        [HARNESS_CLASS_SEQLEN_OFFSET] = gm_case_seqlen_offset(c),
        [HARNESS_CLASS_MAX_SEQ_PAGES] = c->has_max_seq_pages ? c->max_seq_pages : pages,
        [HARNESS_CLASS_REQ_STRIDE] = (int64_t)c->width,
        [HARNESS_CLASS_TABLE_STRIDE] = pages,
        [HARNESS_CLASS_NUM_OUT_TOKENS] = harness_class_num_out_tokens(c),
        [HARNESS_CLASS_OUT_LEN] = out->swa_out ? (int64_t)c->swa.out_len : 0,
        [HARNESS_CLASS_Q_STRIDE] = c->q_stride,
    };
    for (int k = 0; k < HARNESS_CLASS_INTS; k++) {
        out->ints[k] = harness_class_int(ints[k]);
    }
}

uint64_t harness_class_key(const harness_class *k) {
    uint64_t h = GM_HASH_GOLDEN;
    const uint64_t parts[] = {k->q_mode, k->swa_page_table, k->swa_out, k->out_cache_loc,
                              (uint64_t)(uint32_t)k->page_size, k->bs_log2};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        h = gm_hash_mix(h ^ (parts[i] + i * GM_HASH_GOLDEN));
    }
    for (int i = 0; i < HARNESS_CLASS_INTS; i++) {
        h = gm_hash_mix(h ^ ((uint64_t)k->ints[i] << 8 | (uint64_t)(i + 16)));
    }
    return h;
}

uint64_t harness_class_key_of(const gm_case *c) {
    harness_class k;
    harness_class_of(c, &k);
    return harness_class_key(&k);
}

void harness_class_describe(const harness_class *k, char *out, size_t size) {
    static const char *const names[HARNESS_CLASS_INTS] = {
        "bs", "offset", "pages", "stride", "table", "tokens", "out_len", "q_stride"};
    int n = snprintf(out, size, "q%u%s%s%s P=%d bs<=%llu", (unsigned)k->q_mode,
                     k->swa_page_table ? " swa_pt" : "", k->swa_out ? " swa_out" : "",
                     k->out_cache_loc ? " loc" : "", (int)k->page_size,
                     (unsigned long long)1 << k->bs_log2);
    for (int i = 0; i < HARNESS_CLASS_INTS && n > 0 && (size_t)n < size; i++) {
        uint8_t v = k->ints[i];
        const char *div = (v & 3) == HARNESS_CLASS_ONE       ? "1"
                          : (v & 3) == HARNESS_CLASS_SIXTEEN ? "16"
                                                             : "";
        if (div[0] != '\0' || (v & HARNESS_CLASS_WIDE) != 0) {
            n += snprintf(out + n, size - (size_t)n, " %s%s%s", names[i], div[0] ? "=" : "",
                          (v & HARNESS_CLASS_WIDE) != 0 ? "i64" : div);
        }
    }
}
