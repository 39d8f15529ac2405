#include "harness_crash.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "gm_file.h"

bool harness_crash_save_as(const char *dir, const char *prefix, const gm_case *c, const char *key,
                           cJSON *extra, char *path, size_t path_size, gm_error *err) {
    if (!gm_file_make_dirs(dir, err)) {
        cJSON_Delete(extra);
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
    if (root == NULL || extra == NULL || !cJSON_AddItemToObject(root, key, extra)) {
        cJSON_Delete(root);
        cJSON_Delete(extra);
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory saving a %s case", prefix);
    }
    bool ok = gm_json_write_file(path, root, err);
    cJSON_Delete(root);
    return ok;
}

bool harness_crash_save(const char *dir, const gm_case *c, const char *message, char *path,
                        size_t path_size, gm_error *err) {
    return harness_crash_save_as(dir, "device-error", c, "device_error",
                                 cJSON_CreateString(message), path, path_size, err);
}
