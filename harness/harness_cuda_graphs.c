#include "harness_cuda_graphs.h"

#include <string.h>

/* Everything the launch bakes in besides the buffer contents. Pointers are
 * not part of the key: within one entry they follow from the sizes. */
static void harness_cuda_graphs_key(const fused_params *p, int64_t key[HARNESS_CUDA_GRAPHS_KEY]) {
    const int64_t present = (p->swa_mapping != NULL) | (p->out_cache_loc != NULL) << 1 |
                            (p->qlens != NULL) << 2 | (p->cu_seqlens_q != NULL) << 3 |
                            (p->swa_page_table != NULL) << 4 | (p->swa_out_cache_loc != NULL) << 5;
    const int64_t k[HARNESS_CUDA_GRAPHS_KEY] = {
        p->bs,
        p->req_to_token_rows,
        p->req_to_token_stride,
        p->swa_mapping_len,
        p->n_out,
        p->out_len,
        p->page_table_stride,
        p->max_seq_pages,
        p->page_size,
        p->seqlen_offset,
        p->q_stride,
        (int64_t)p->q_mode,
        present,
    };
    memcpy(key, k, sizeof k);
}

static harness_cuda_graph_entry *harness_cuda_graphs_find(harness_cuda_graphs *g,
                                                          const int64_t *key) {
    for (int i = 0; i < HARNESS_CUDA_GRAPHS_SLOTS; i++) {
        harness_cuda_graph_entry *s = &g->slots[i];
        if (s->used && memcmp(s->key, key, sizeof s->key) == 0) {
            return s;
        }
    }
    return NULL;
}

/* A free slot, or the least recently used one emptied. */
static harness_cuda_graph_entry *harness_cuda_graphs_evict(harness_cuda_graphs *g) {
    harness_cuda_graph_entry *victim = &g->slots[0];
    for (int i = 0; i < HARNESS_CUDA_GRAPHS_SLOTS; i++) {
        harness_cuda_graph_entry *s = &g->slots[i];
        if (!s->used) {
            return s;
        }
        if (s->last_used < victim->last_used) {
            victim = s;
        }
    }
    cudaGraphExecDestroy(victim->exec);
    harness_cuda_arena_release(&victim->arena);
    memset(victim, 0, sizeof *victim);
    return victim;
}

/* Records the status reset and the launch on `stream` into a graph. */
static cudaError_t harness_cuda_graphs_capture(harness_cuda_graph_entry *s, const fused_params *dev,
                                               fused_cuda_status *status, cudaStream_t stream) {
    cudaError_t e = cudaStreamSynchronize(stream); /* uploads done before capturing */
    if (e != cudaSuccess) {
        return e;
    }
    e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess) {
        return e;
    }
    cudaError_t recorded = cudaMemsetAsync(status, 0, sizeof *status, stream);
    if (recorded == cudaSuccess) {
        recorded = fused_cuda_launch(dev, 1, status, stream);
    }
    cudaGraph_t graph = NULL;
    e = cudaStreamEndCapture(stream, &graph);
    if (recorded == cudaSuccess && e == cudaSuccess) {
        e = cudaGraphInstantiate(&s->exec, graph, 0);
    }
    cudaGraphDestroy(graph);
    return recorded != cudaSuccess ? recorded : e;
}

cudaError_t harness_cuda_graphs_run(harness_cuda_graphs *g, fused_params *host, cudaStream_t stream,
                                    fused_cuda_status *seen, harness_cuda_arena **arena) {
    int64_t key[HARNESS_CUDA_GRAPHS_KEY];
    harness_cuda_graphs_key(host, key);
    harness_cuda_graph_entry *s = harness_cuda_graphs_find(g, key);
    bool fresh = s == NULL;
    if (fresh) {
        s = harness_cuda_graphs_evict(g);
    }
    cudaError_t e = harness_cuda_arena_reserve(&s->arena, harness_cuda_arena_need(host));
    fused_params dev = *host; /* device pointers once uploaded */
    fused_cuda_status *status = NULL;
    if (e == cudaSuccess) {
        harness_cuda_arena_upload(&s->arena, host, &dev, &status, stream, &e);
    }
    if (e == cudaSuccess && fresh) {
        e = harness_cuda_graphs_capture(s, &dev, status, stream);
        if (e == cudaSuccess) {
            memcpy(s->key, key, sizeof s->key);
            s->used = true;
            g->captures++;
        }
    }
    if (e == cudaSuccess) {
        s->last_used = ++g->clock;
        e = cudaGraphLaunch(s->exec, stream);
    }
    harness_cuda_arena_download(&s->arena, &dev, host, seen, stream, &e);
    *arena = &s->arena;
    return e;
}

void harness_cuda_graphs_release(harness_cuda_graphs *g) {
    for (int i = 0; i < HARNESS_CUDA_GRAPHS_SLOTS; i++) {
        if (g->slots[i].used) {
            cudaGraphExecDestroy(g->slots[i].exec);
        }
        harness_cuda_arena_release(&g->slots[i].arena);
    }
    harness_cuda_graphs_forget(g);
}

void harness_cuda_graphs_forget(harness_cuda_graphs *g) { memset(g, 0, sizeof *g); }
