/* harness_pybatch: the CALL_PLACED payload of docs/TARGETS.md, built in one
 * growing buffer, the tensors' bytes in a shared block, with the places where
 * each call's OUT tensors are read back and its IN tensors checked. */
#define _GNU_SOURCE /* memfd_create */
#include "harness_pybatch.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness_inputs.h"

/* The smallest block: most batches fit from the start (each new block is
 * sent to the worker again and mapped there anew). */
#define HARNESS_PYBATCH_BLOCK_MIN ((size_t)16 << 20)

static bool harness_pybatch_reserve(harness_pybatch *b, size_t more) {
    if (b->failed) {
        return false;
    }
    if (b->len + more <= b->cap) {
        return true;
    }
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more) {
        cap *= 2;
    }
    char *bytes = realloc(b->bytes, cap);
    if (bytes == NULL) {
        b->failed = true;
        return false;
    }
    b->bytes = bytes;
    b->cap = cap;
    return true;
}

static void harness_pybatch_put(harness_pybatch *b, const void *data, size_t n) {
    if (harness_pybatch_reserve(b, n)) {
        memcpy(b->bytes + b->len, data, n);
        b->len += n;
    }
}

static void harness_pybatch_u32_at(harness_pybatch *b, size_t at, uint32_t v) {
    if (!b->failed) {
        memcpy(b->bytes + at, &v, 4); /* little-endian hosts only (x86-64, arm64) */
    }
}

bool harness_pybatch_new(harness_pybatch **out, gm_error *err) {
    *out = calloc(1, sizeof **out);
    if (*out == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of calls");
    }
    (*out)->block.fd = -1;
    harness_pybatch_clear(*out);
    return true;
}

static void harness_pybatch_unmap(harness_pybatch_block *k) {
    if (k->base != NULL) {
        munmap(k->base, k->size);
    }
    if (k->fd >= 0) {
        close(k->fd);
    }
}

void harness_pybatch_free(harness_pybatch *b) {
    if (b != NULL) {
        harness_pybatch_unmap(&b->block);
        free(b->bytes);
        free(b->outs);
        free(b->call_first_out);
        free(b->ins);
        free(b->call_first_in);
        free(b);
    }
}

/* Every block of this process gets an id of its own, so that a worker is
 * never left with a mapping of a block that is gone (an address or a memfd
 * inode can come back; the count does not). */
static atomic_uint_fast64_t harness_pybatch_blocks;

/* Room for `more` bytes past the used ones: a fresh memfd when the block
 * must grow, with the bytes placed so far copied over. */
static bool harness_pybatch_block_room(harness_pybatch *b, size_t more) {
    harness_pybatch_block *k = &b->block;
    if (k->base != NULL && k->used + more <= k->size) {
        return true;
    }
    size_t size = k->size ? k->size : HARNESS_PYBATCH_BLOCK_MIN;
    while (size < k->used + more) {
        size *= 2;
    }
    int fd = memfd_create("gmfuzz-pybatch", MFD_CLOEXEC);
    char *base = fd >= 0 && ftruncate(fd, (off_t)size) == 0
                     ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                     : MAP_FAILED;
    if (base == MAP_FAILED) {
        if (fd >= 0) {
            close(fd);
        }
        b->failed = true;
        return false;
    }
    if (k->used > 0) {
        memcpy(base, k->base, k->used);
    }
    size_t used = k->used;
    harness_pybatch_unmap(k);
    uint64_t id = atomic_fetch_add(&harness_pybatch_blocks, 1) + 1;
    *k = (harness_pybatch_block){base, size, used, fd, id};
    return true;
}

/* Copies `n` bytes into the block at the next aligned place; its offset. */
static uint64_t harness_pybatch_place(harness_pybatch *b, const void *data, size_t n) {
    harness_pybatch_block *k = &b->block;
    size_t align = HARNESS_PYBATCH_ALIGN;
    size_t at = (k->used + align - 1) / align * align;
    if (b->failed || !harness_pybatch_block_room(b, at - k->used + n)) {
        return 0;
    }
    if (n > 0) {
        memcpy(k->base + at, data, n);
    }
    k->used = at + n;
    return at;
}

void harness_pybatch_clear(harness_pybatch *b) {
    b->block.used = 0;
    b->len = 0;
    b->count = 0;
    b->n_outs = 0;
    b->n_ins = 0;
    b->failed = false;
    uint32_t zero = 0;
    harness_pybatch_put(b, &zero, 4); /* the count, patched as calls begin */
}

size_t harness_pybatch_count(const harness_pybatch *b) { return b->count; }
bool harness_pybatch_ok(const harness_pybatch *b) { return !b->failed; }

static bool harness_pybatch_grow_calls(harness_pybatch *b) {
    if (b->count < b->calls_cap) {
        return true;
    }
    size_t cap = b->calls_cap ? b->calls_cap * 2 : 64;
    size_t *first = realloc(b->call_first_out, (cap + 1) * sizeof *first);
    b->call_first_out = first != NULL ? first : b->call_first_out;
    size_t *first_in = realloc(b->call_first_in, (cap + 1) * sizeof *first_in);
    b->call_first_in = first_in != NULL ? first_in : b->call_first_in;
    if (first == NULL || first_in == NULL) {
        b->failed = true;
        return false;
    }
    b->calls_cap = cap;
    return true;
}

void harness_pybatch_begin(harness_pybatch *b) {
    if (!harness_pybatch_grow_calls(b)) {
        return;
    }
    b->call_first_out[b->count] = b->n_outs;
    b->call_first_in[b->count] = b->n_ins;
    b->count++;
    b->call_first_out[b->count] = b->n_outs;
    b->call_first_in[b->count] = b->n_ins;
    harness_pybatch_u32_at(b, 0, (uint32_t)b->count);
    b->args_at = b->len;
    b->n_args = 0;
    uint32_t zero = 0;
    harness_pybatch_put(b, &zero, 4);
}

/* The name and kind of the next argument of the current call. */
static void harness_pybatch_arg(harness_pybatch *b, const char *name, harness_pyarg_kind kind) {
    uint16_t n = (uint16_t)strlen(name);
    uint8_t k = (uint8_t)kind;
    harness_pybatch_put(b, &n, 2);
    harness_pybatch_put(b, name, n);
    harness_pybatch_put(b, &k, 1);
    harness_pybatch_u32_at(b, b->args_at, ++b->n_args);
}

void harness_pybatch_int(harness_pybatch *b, const char *name, int64_t v) {
    harness_pybatch_arg(b, name, HARNESS_PYARG_INT);
    harness_pybatch_put(b, &v, 8);
}

void harness_pybatch_str(harness_pybatch *b, const char *name, const char *s) {
    uint32_t n = (uint32_t)strlen(s);
    harness_pybatch_arg(b, name, HARNESS_PYARG_STR);
    harness_pybatch_put(b, &n, 4);
    harness_pybatch_put(b, s, n);
}

void harness_pybatch_none(harness_pybatch *b, const char *name) {
    harness_pybatch_arg(b, name, HARNESS_PYARG_NONE);
}

static void harness_pybatch_add_out(harness_pybatch *b, void *data, size_t bytes, size_t offset) {
    if (b->n_outs == b->outs_cap) {
        size_t cap = b->outs_cap ? b->outs_cap * 2 : 256;
        harness_pybatch_out *outs = realloc(b->outs, cap * sizeof *outs);
        if (outs == NULL) {
            b->failed = true;
            return;
        }
        b->outs = outs;
        b->outs_cap = cap;
    }
    b->outs[b->n_outs++] = (harness_pybatch_out){data, bytes, offset};
    b->call_first_out[b->count] = b->n_outs;
}

static void harness_pybatch_add_in(harness_pybatch *b, const harness_pybatch_in *in) {
    if (b->n_ins == b->ins_cap) {
        size_t cap = b->ins_cap ? b->ins_cap * 2 : 256;
        harness_pybatch_in *ins = realloc(b->ins, cap * sizeof *ins);
        if (ins == NULL) {
            b->failed = true;
            return;
        }
        b->ins = ins;
        b->ins_cap = cap;
    }
    b->ins[b->n_ins++] = *in;
    b->call_first_in[b->count] = b->n_ins;
}

bool harness_pybatch_inputs_changed(const harness_pybatch *b, size_t k, char *what, size_t size) {
    for (size_t j = b->call_first_in[k]; j < b->call_first_in[k + 1]; j++) {
        const harness_pybatch_in *in = &b->ins[j];
        harness_inputs_buf sent = {in->name, in->data, in->elem, in->count, in->cols};
        if (harness_inputs_changed(&sent, b->block.base + in->offset, what, size)) {
            return true;
        }
    }
    return false;
}

void harness_pybatch_tensor(harness_pybatch *b, const char *name, harness_pyarg_kind kind,
                            int elem_size, int rank, const size_t dims[2], void *data) {
    uint8_t head[2] = {(uint8_t)elem_size, (uint8_t)rank};
    size_t count = rank == 2 ? dims[0] * dims[1] : dims[0];
    harness_pybatch_arg(b, name, kind);
    harness_pybatch_put(b, head, 2);
    for (int k = 0; k < rank; k++) {
        uint64_t d = dims[k];
        harness_pybatch_put(b, &d, 8);
    }
    size_t bytes = count * (size_t)elem_size;
    uint64_t at = harness_pybatch_place(b, data, bytes);
    harness_pybatch_put(b, &at, 8);
    if (kind == HARNESS_PYARG_OUT) {
        harness_pybatch_add_out(b, data, bytes, (size_t)at);
    } else if (kind == HARNESS_PYARG_IN && !b->failed) {
        harness_pybatch_in in = {name, data, elem_size, count, rank == 2 ? dims[1] : 1,
                                 (size_t)at};
        harness_pybatch_add_in(b, &in);
    }
}
