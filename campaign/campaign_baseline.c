#include "campaign_baseline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gm_json.h"

/* The whole of a small text file, NUL-terminated. */
static char *campaign_baseline_slurp(const char *path, gm_error *err) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        gm_error_set(err, GM_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    size_t got;
    while (text != NULL && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *grown = realloc(text, cap * 2);
            if (grown == NULL) {
                free(text);
            }
            text = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (text == NULL) {
        gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory reading it", path);
        return NULL;
    }
    text[len] = '\0';
    return text;
}

static cJSON *campaign_baseline_source(const char *source, gm_error *err) {
    if (source == NULL) {
        cJSON *root = cJSON_CreateObject();
        if (root == NULL || !cJSON_AddStringToObject(root, "format", "gmfuzz-known-v1")) {
            cJSON_Delete(root);
            gm_error_set(err, GM_ERR_MEMORY, "out of memory for a baseline");
            return NULL;
        }
        return root;
    }
    char *text = campaign_baseline_slurp(source, err);
    cJSON *root = text != NULL ? cJSON_Parse(text) : NULL;
    if (text != NULL && !cJSON_IsObject(root)) {
        gm_error_set(err, GM_ERR_FORMAT, "%s: not a JSON object", source);
        cJSON_Delete(root);
        root = NULL;
    }
    free(text);
    return root;
}

/* {"signature": S, "decision": "bug", "explanation": "..."} */
static bool campaign_baseline_add(cJSON *list, const campaign_signature *s, const char *dir) {
    char why[1024];
    snprintf(why, sizeof why, "found by the campaign in %s (%zu failing inputs); see its repros/",
             dir, s->count);
    cJSON *entry = cJSON_CreateObject();
    if (entry == NULL || !cJSON_AddItemToArray(list, entry)) {
        cJSON_Delete(entry);
        return false;
    }
    return cJSON_AddStringToObject(entry, "signature", s->signature) != NULL &&
           cJSON_AddStringToObject(entry, "decision", "bug") != NULL &&
           cJSON_AddStringToObject(entry, "explanation", why) != NULL;
}

/* Whether `list` already has an entry for `signature` (the loader rejects
 * a signature listed twice). */
static bool campaign_baseline_listed(const cJSON *list, const char *signature) {
    const cJSON *entry;
    cJSON_ArrayForEach(entry, list) {
        const cJSON *sig = cJSON_GetObjectItemCaseSensitive(entry, "signature");
        if (cJSON_IsString(sig) && strcmp(sig->valuestring, signature) == 0) {
            return true;
        }
    }
    return false;
}

/* The "signatures" array of `root`, created when absent. */
static cJSON *campaign_baseline_list(cJSON *root) {
    cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "signatures");
    if (list == NULL) {
        list = cJSON_AddArrayToObject(root, "signatures");
    }
    return cJSON_IsArray(list) ? list : NULL;
}

bool campaign_baseline_write(const char *source, const campaign_failures *found, const char *dir,
                             const char *out, gm_error *err) {
    cJSON *root = campaign_baseline_source(source, err);
    if (root == NULL) {
        return false;
    }
    cJSON *list = campaign_baseline_list(root);
    bool ok = list != NULL;
    for (size_t i = 0; ok && i < found->n_sigs; i++) {
        if (!campaign_baseline_listed(list, found->sigs[i].signature)) {
            ok = campaign_baseline_add(list, &found->sigs[i], dir);
        }
    }
    if (!ok) {
        gm_error_set(err, GM_ERR_MEMORY, "%s: cannot build the campaign baseline", out);
    }
    ok = ok && gm_json_write_file(out, root, err);
    cJSON_Delete(root);
    return ok;
}
