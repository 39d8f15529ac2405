#include "gm_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gm_backend_impl.h"
#include "gm_json.h"
#include "gm_paths.h"
#include "gm_worker.h"

struct gm_backend {
    gm_backend_kind kind;
    gm_worker *worker; /* the GPU backends run in a worker process */
    char *crash_dir;
};

static const char *const gm_backend_names[GM_BACKEND_COUNT] = {
    "cpu", "cuda", "cuda-graph", "cuda-raw",
};

const char *gm_backend_kind_name(gm_backend_kind kind) {
    return (unsigned)kind < GM_BACKEND_COUNT ? gm_backend_names[kind] : "?";
}

bool gm_backend_kind_from_name(const char *name, gm_backend_kind *out) {
    for (int k = 0; k < GM_BACKEND_COUNT; k++) {
        if (strcmp(name, gm_backend_names[k]) == 0) {
            *out = (gm_backend_kind)k;
            return true;
        }
    }
    return false;
}

bool gm_backend_open(gm_backend_kind kind, gm_backend **out, gm_error *err) {
    *out = NULL;
    gm_backend *b = calloc(1, sizeof *b);
    if (b == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory opening a backend");
    }
    b->kind = kind;
    static const gm_cuda_mode modes[GM_BACKEND_COUNT] = {
        [GM_BACKEND_CUDA] = GM_CUDA_CHECKED,
        [GM_BACKEND_CUDA_GRAPH] = GM_CUDA_GRAPH,
        [GM_BACKEND_CUDA_RAW] = GM_CUDA_RAW,
    };
    if (kind != GM_BACKEND_CPU && !gm_worker_start(modes[kind], &b->worker, err)) {
        free(b);
        return false;
    }
    *out = b;
    return true;
}

void gm_backend_close(gm_backend *b) {
    if (b == NULL) {
        return;
    }
    gm_worker_stop(b->worker);
    free(b->crash_dir);
    free(b);
}

void gm_backend_set_crash_dir(gm_backend *b, const char *dir) {
    free(b->crash_dir);
    b->crash_dir = NULL;
    if (dir != NULL) {
        size_t n = strlen(dir) + 1;
        b->crash_dir = malloc(n);
        if (b->crash_dir != NULL) {
            memcpy(b->crash_dir, dir, n);
        }
    }
}

gm_backend_kind gm_backend_kind_of(const gm_backend *b) { return b->kind; }

bool gm_backend_run(gm_backend *b, const gm_case *c, gm_outputs *out, gm_error *err) {
    if (b->worker != NULL) {
        return gm_worker_run(b->worker, c, out, b->crash_dir, err);
    }
    return gm_outputs_prepare(out, c, err) && gm_backend_cpu_run(c, out, err);
}

static fused_q_mode gm_backend_q_mode(gm_mode mode) {
    switch (mode) {
    case GM_MODE_DRAFT_EXTEND: return FUSED_Q_CUMSUM;
    case GM_MODE_DRAFT_EXTEND_V2: return FUSED_Q_STRIDED;
    default: return FUSED_Q_NONE;
    }
}

void gm_backend_params(const gm_case *c, gm_outputs *out, fused_params *p) {
    memset(p, 0, sizeof *p);
    p->req_pool_indices = c->req_pool_indices;
    p->seq_lens = c->seq_lens;
    p->req_to_token = c->req_to_token;
    p->req_to_token_rows = (int64_t)c->pool;
    p->req_to_token_stride = (int64_t)c->width;
    if (c->has_swa) {
        p->swa_mapping = c->swa.mapping;
        p->swa_mapping_len = (int64_t)c->swa.mapping_len;
        p->out_cache_loc = c->swa.out_cache_loc;
        p->n_out = (int64_t)c->swa.n_out;
    }
    p->qlens = c->qlens;

    p->q_mode = gm_backend_q_mode(c->mode);
    p->cache_seqlens = gm_buffer_i32(&out->buf[GM_BUF_CACHE_SEQLENS]);
    p->cu_seqlens_k = gm_buffer_i32(&out->buf[GM_BUF_CU_SEQLENS_K]);
    /* Upstream passes cu_seqlens_q only to the modes that rewrite it. */
    p->cu_seqlens_q = p->q_mode == FUSED_Q_NONE ? NULL : gm_buffer_i32(&out->buf[GM_BUF_CU_SEQLENS_Q]);
    p->page_table = gm_buffer_i32(&out->buf[GM_BUF_PAGE_TABLE]);
    p->page_table_stride = (int64_t)gm_case_max_num_pages(c);
    p->swa_page_table = gm_buffer_i32(&out->buf[GM_BUF_SWA_PAGE_TABLE]);
    p->swa_out_cache_loc = gm_buffer_i64(&out->buf[GM_BUF_SWA_OUT_CACHE_LOC]);
    p->out_len = out->buf[GM_BUF_SWA_OUT_CACHE_LOC].present ? (int64_t)c->swa.out_len : 0;

    p->bs = (int64_t)c->bs;
    p->seqlen_offset = gm_case_seqlen_offset(c);
    p->max_seq_pages = c->has_max_seq_pages ? c->max_seq_pages : p->page_table_stride;
    p->page_size = c->page_size;
    p->q_stride = c->q_stride;
}

bool gm_backend_save_crash(const char *dir, const gm_case *c, const char *message, char *path,
                           size_t path_size, gm_error *err) {
    static const char *const prefix = "device-error";
    if (!gm_paths_make_dirs(dir, err)) {
        return false;
    }
    /* Unique without shared state: time, pid, and the first free counter. */
    for (unsigned k = 0; k < 1000; k++) {
        snprintf(path, path_size, "%s/%s-%lld-%d-%u.json", dir, prefix, (long long)time(NULL),
                 (int)getpid(), k);
        if (access(path, F_OK) != 0) {
            break;
        }
    }
    cJSON *root = gm_json_case(c);
    if (root == NULL || cJSON_AddStringToObject(root, "device_error", message) == NULL) {
        cJSON_Delete(root);
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory saving a device-error case");
    }
    bool ok = gm_json_write_file(path, root, err);
    cJSON_Delete(root);
    return ok;
}
