/* gm_sha256: SHA-256 (FIPS 180-4) of a file, as reproducers record the
 * library or module a target ran. */
#ifndef GM_SHA256_H
#define GM_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_error.h"

typedef struct {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char block[64];
    size_t used;
} gm_sha256;

void gm_sha256_init(gm_sha256 *s);
void gm_sha256_update(gm_sha256 *s, const void *data, size_t n);
/* The digest as 64 lowercase hex digits and a NUL. */
void gm_sha256_final_hex(gm_sha256 *s, char hex[65]);

bool gm_sha256_file(const char *path, char hex[65], gm_error *err);

#endif
