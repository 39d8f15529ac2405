/* repro_failure_name: the names of the failure files a job writes
 * (fuzz_check), "failure-<key>-<pid>-<execs>.json". The key is the hash of
 * the finding's signature and bucket: the driver (campaign_failures) and
 * triage (repro_rundir) give a file too large to read whole the bucket of
 * a smaller file with the same key, the bucket its job computed, and both
 * give it the same one. */
#include "repro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_hash.h"

uint64_t repro_failure_name_key(const char *signature, const char *bucket) {
    uint64_t h = gm_hash_fnv1a(GM_HASH_FNV_BASIS, signature, strlen(signature));
    h = gm_hash_fnv1a(h, "||", 2);
    return gm_hash_fnv1a(h, bucket, strlen(bucket));
}

bool repro_failure_name_parse(const char *path, uint64_t *key) {
    const char *slash = strrchr(path, '/');
    const char *name = slash != NULL ? slash + 1 : path;
    static const char prefix[] = "failure-";
    size_t n = sizeof prefix - 1;
    if (strncmp(name, prefix, n) != 0 || strspn(name + n, "0123456789abcdef") != 16 ||
        name[n + 16] != '-') {
        return false;
    }
    char hex[17];
    memcpy(hex, name + n, 16);
    hex[16] = '\0';
    *key = (uint64_t)strtoull(hex, NULL, 16);
    return true;
}
