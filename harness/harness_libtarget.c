#include "harness_libtarget.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fused_params.h"
#include "harness_inputs.h"
#include "harness_launch.h"

/* The few CUDA runtime entry points used, by their C signatures
 * (cudaError_t is an int-sized enum; cudaMemcpyKind 1 and 2). */
typedef int (*harness_cuda_malloc_fn)(void **, size_t);
typedef int (*harness_cuda_free_fn)(void *);
typedef int (*harness_cuda_memcpy_fn)(void *, const void *, size_t, int);
typedef int (*harness_cuda_sync_fn)(void);
typedef const char *(*harness_cuda_error_string_fn)(int);
typedef int (*harness_launch_fn)(const fused_params *, void *);
typedef int (*harness_abi_fn)(void);
typedef const char *(*harness_status_fn)(int);

enum { HARNESS_LIB_H2D = 1, HARNESS_LIB_D2H = 2, HARNESS_LIB_ARRAYS = 12 };

struct harness_libtarget {
    void *library, *cudart;
    harness_cuda_malloc_fn malloc_fn;
    harness_cuda_free_fn free_fn;
    harness_cuda_memcpy_fn memcpy_fn;
    harness_cuda_sync_fn sync_fn;
    harness_cuda_error_string_fn error_string;
    harness_launch_fn launch;
    harness_status_fn status_string;
    void *device[HARNESS_LIB_ARRAYS]; /* grow-only device buffers, one per array */
    size_t capacity[HARNESS_LIB_ARRAYS];
};

/* The CUDA runtime the library brings (a shared libcudart among its
 * dependencies exports every entry point used here; a static one may hold
 * only those the library calls), else one of the machine's
 * ($GMFUZZ_CUDART first). Any copy of the runtime works on the same
 * device memory: all of them use the device's primary context. */
static bool harness_libtarget_has_runtime(void *handle) {
    static const char *const names[] = {"cudaMalloc", "cudaFree", "cudaMemcpy",
                                        "cudaDeviceSynchronize", "cudaGetErrorString"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (dlsym(handle, names[k]) == NULL) {
            return false;
        }
    }
    return true;
}

static bool harness_libtarget_find_cudart(harness_libtarget *t, gm_error *err) {
    if (harness_libtarget_has_runtime(t->library)) {
        t->cudart = t->library;
        return true;
    }
    const char *names[] = {getenv("GMFUZZ_CUDART"), "libcudart.so", "libcudart.so.13",
                           "libcudart.so.12", "/usr/local/cuda/lib64/libcudart.so"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (names[k] != NULL && (t->cudart = dlopen(names[k], RTLD_NOW | RTLD_LOCAL)) != NULL) {
            if (harness_libtarget_has_runtime(t->cudart)) {
                return true;
            }
            dlclose(t->cudart);
            t->cudart = NULL;
        }
    }
    return gm_error_set(err, GM_ERR_DEVICE,
                        "lib target: no CUDA runtime (libcudart.so) found; set GMFUZZ_CUDART");
}

#define HARNESS_LIB_SYM(t, handle, field, type, name)                                              \
    (((t)->field = (type)(uintptr_t)dlsym((handle), (name))) != NULL ||                            \
     gm_error_set(err, GM_ERR_DEVICE, "lib target: %s has no %s", what, (name)))

bool harness_libtarget_open(const char *path, harness_libtarget **out, gm_error *err) {
    *out = NULL;
    harness_libtarget *t = calloc(1, sizeof *t);
    if (t == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory loading a lib target");
    }
    t->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (t->library == NULL) {
        gm_error_set(err, GM_ERR_DEVICE, "lib target: %s", dlerror());
        free(t);
        return false;
    }
    const char *what = path;
    harness_abi_fn abi = (harness_abi_fn)(uintptr_t)dlsym(t->library, "gmfuzz_kernel_abi_version");
    bool ok =
        (abi != NULL || gm_error_set(err, GM_ERR_DEVICE,
                                     "lib target: %s has no gmfuzz_kernel_abi_version", path)) &&
        (abi() == 1 ||
         gm_error_set(err, GM_ERR_DEVICE, "lib target: %s speaks ABI %d, gmfuzz speaks 1", path,
                      abi())) &&
        HARNESS_LIB_SYM(t, t->library, launch, harness_launch_fn, "gmfuzz_kernel_launch") &&
        HARNESS_LIB_SYM(t, t->library, status_string, harness_status_fn,
                        "gmfuzz_kernel_status_string") &&
        harness_libtarget_find_cudart(t, err);
    what = "the CUDA runtime";
    ok = ok && HARNESS_LIB_SYM(t, t->cudart, malloc_fn, harness_cuda_malloc_fn, "cudaMalloc") &&
         HARNESS_LIB_SYM(t, t->cudart, free_fn, harness_cuda_free_fn, "cudaFree") &&
         HARNESS_LIB_SYM(t, t->cudart, memcpy_fn, harness_cuda_memcpy_fn, "cudaMemcpy") &&
         HARNESS_LIB_SYM(t, t->cudart, sync_fn, harness_cuda_sync_fn, "cudaDeviceSynchronize") &&
         HARNESS_LIB_SYM(t, t->cudart, error_string, harness_cuda_error_string_fn,
                         "cudaGetErrorString");
    void *probe = NULL;
    int e = ok ? t->malloc_fn(&probe, 256) : 0;
    if (ok && e != 0) {
        ok = gm_error_set(err, GM_ERR_DEVICE, "lib target: no usable GPU: %s", t->error_string(e));
    }
    if (probe != NULL) {
        t->free_fn(probe);
    }
    if (!ok) {
        harness_libtarget_close(t);
        return false;
    }
    *out = t;
    return true;
}

void harness_libtarget_close(harness_libtarget *t) {
    if (t == NULL) {
        return;
    }
    for (int k = 0; k < HARNESS_LIB_ARRAYS; k++) {
        if (t->device[k] != NULL && t->free_fn != NULL) {
            t->free_fn(t->device[k]);
        }
    }
    if (t->cudart != NULL && t->cudart != t->library) {
        dlclose(t->cudart);
    }
    if (t->library != NULL) {
        dlclose(t->library);
    }
    free(t);
}

static bool harness_libtarget_check(harness_libtarget *t, int e, const char *what, gm_error *err) {
    return e == 0 || gm_error_set(err, GM_ERR_DEVICE, "lib target: %s: %s", what,
                                  t->error_string(e));
}

/* Slot k's device buffer, holding `bytes` from `host` (NULL stays NULL). */
static bool harness_libtarget_upload(harness_libtarget *t, int k, void **ptr, size_t bytes,
                                     gm_error *err) {
    void *host = *ptr;
    if (host == NULL) {
        return true;
    }
    size_t want = bytes ? bytes : 8;
    if (t->capacity[k] < want) {
        if (t->device[k] != NULL) {
            t->free_fn(t->device[k]);
            t->device[k] = NULL;
            t->capacity[k] = 0;
        }
        if (!harness_libtarget_check(t, t->malloc_fn(&t->device[k], want * 2), "cudaMalloc", err)) {
            return false;
        }
        t->capacity[k] = want * 2;
    }
    *ptr = t->device[k];
    return bytes == 0 || harness_libtarget_check(
                             t, t->memcpy_fn(*ptr, host, bytes, HARNESS_LIB_H2D), "upload", err);
}

/* Inputs are read-only (harness_inputs.h): each input buffer of `sent`
 * (host pointers) downloaded from where the library had it (`device[k]` for
 * the k-th of fused_buf order) and compared with what was uploaded. */
static bool harness_libtarget_check_inputs(harness_libtarget *t, const fused_params *sent,
                                           void *const *host, void *const *device,
                                           gm_outputs *out, gm_error *err) {
    harness_inputs_buf in[HARNESS_INPUTS_MAX];
    size_t n = harness_inputs_of(sent, in);
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        size_t bytes = in[i].count * (size_t)in[i].elem;
        int k = 0;
        while (k < 6 && host[k] != in[i].data) {
            k++;
        }
        if (bytes == 0 || k == 6) {
            continue;
        }
        void *now = malloc(bytes);
        char what[HARNESS_INPUTS_WHAT_MAX];
        ok = (now != NULL || gm_error_set(err, GM_ERR_MEMORY, "lib target: out of memory")) &&
             harness_libtarget_check(t, t->memcpy_fn(now, device[k], bytes, HARNESS_LIB_D2H),
                                     "download of an input", err);
        if (ok && harness_inputs_changed(&in[i], now, what, sizeof what)) {
            harness_inputs_report(out, what);
            n = 0;
        }
        free(now);
    }
    return ok;
}

bool harness_libtarget_run(harness_libtarget *t, const gm_case *c, gm_outputs *out, gm_error *err) {
    fused_params p;
    harness_launch_params(c, out, &p);
    const fused_params sent = p;
    if (p.bs == 0) {
        return true; /* the launcher does nothing */
    }
    /* Every pointer of p with its size in bytes, uploaded in place. */
    void **ptrs[HARNESS_LIB_ARRAYS] = {
        (void **)&p.req_pool_indices, (void **)&p.seq_lens,       (void **)&p.req_to_token,
        (void **)&p.swa_mapping,      (void **)&p.out_cache_loc,  (void **)&p.qlens,
        (void **)&p.cache_seqlens,    (void **)&p.cu_seqlens_k,   (void **)&p.cu_seqlens_q,
        (void **)&p.page_table,       (void **)&p.swa_page_table, (void **)&p.swa_out_cache_loc,
    };
    static const gm_buf_id bufs[6] = {GM_BUF_CACHE_SEQLENS, GM_BUF_CU_SEQLENS_K,
                                      GM_BUF_CU_SEQLENS_Q,  GM_BUF_PAGE_TABLE,
                                      GM_BUF_SWA_PAGE_TABLE, GM_BUF_SWA_OUT_CACHE_LOC};
    size_t sizes[HARNESS_LIB_ARRAYS] = {
        c->bs * 8,        c->bs * 8, c->pool * c->width * 4, c->swa.mapping_len * 8,
        c->swa.n_out * 8, c->bs * 4};
    for (int k = 0; k < 6; k++) {
        const gm_buffer *b = &out->buf[bufs[k]];
        sizes[6 + k] = b->present ? gm_buffer_count(b) * (b->is_int64 ? 8 : 4) : 0;
    }
    void *host[HARNESS_LIB_ARRAYS];
    for (int k = 0; k < 12; k++) {
        host[k] = *ptrs[k];
        if (!harness_libtarget_upload(t, k, ptrs[k], sizes[k], err)) {
            return false;
        }
    }
    int status = t->launch(&p, NULL);
    if (status != 0) {
        return gm_error_set(err, GM_ERR_DEVICE, "lib target: the launch was refused: %s",
                            t->status_string(status));
    }
    if (!harness_libtarget_check(t, t->sync_fn(), "the kernel", err)) {
        return false;
    }
    for (int k = 6; k < 12; k++) {
        if (host[k] != NULL && sizes[k] > 0 &&
            !harness_libtarget_check(t, t->memcpy_fn(host[k], *ptrs[k], sizes[k], HARNESS_LIB_D2H),
                                     "download", err)) {
            return false;
        }
    }
    void *device[6];
    for (int k = 0; k < 6; k++) {
        device[k] = *ptrs[k];
    }
    return harness_libtarget_check_inputs(t, &sent, host, device, out, err);
}
