/* history_record: the record of one bisect search (gmfuzz-bisect-v1,
 * docs/FORMATS.md), one line of REPRO.bisect.jsonl per search. */
#include "history.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static cJSON *history_record_commit(const history_commit *c) {
    cJSON *o = cJSON_CreateObject();
    if (o != NULL) {
        cJSON_AddStringToObject(o, "commit", c->hash);
        cJSON_AddStringToObject(o, "subject", c->subject);
        cJSON_AddStringToObject(o, "author_date", c->date);
    }
    return o;
}

static cJSON *history_record_step(const history_bisect_step *st) {
    cJSON *o = history_record_commit(&st->commit);
    if (o != NULL) {
        cJSON_AddStringToObject(o, "result", history_rev_result_name(st->result));
        if (st->result == HISTORY_REV_SKIPPED) {
            cJSON_AddStringToObject(o, "why", st->why);
        } else if (st->bucket[0] != '\0') {
            cJSON_AddStringToObject(o, "bucket", st->bucket);
        } else {
            cJSON_AddNullToObject(o, "bucket");
        }
    }
    return o;
}

/* The answer: "first" (or null), and the suspects of an unfinished search. */
static void history_record_answer(cJSON *root, const history_bisect_result *r) {
    cJSON_AddItemToObject(root, "first", r->found ? history_record_commit(&r->first)
                                                  : cJSON_CreateNull());
    cJSON *suspects = cJSON_AddArrayToObject(root, "suspects");
    for (size_t i = 0; !r->found && suspects != NULL && i < r->n_suspects; i++) {
        cJSON_AddItemToArray(suspects, history_record_commit(&r->suspects[i]));
    }
    cJSON_AddNumberToObject(root, "tested", (double)r->tested);
    cJSON_AddNumberToObject(root, "skipped", (double)r->skipped);
    cJSON *steps = cJSON_AddArrayToObject(root, "steps");
    for (size_t i = 0; steps != NULL && i < r->n_steps; i++) {
        cJSON_AddItemToArray(steps, history_record_step(&r->steps[i]));
    }
}

cJSON *history_record_json(const history_bisect_result *r, const history_bisect_options *o,
                           const char *repro) {
    cJSON *root = cJSON_CreateObject();
    if (root == NULL) {
        return NULL;
    }
    char target[HARNESS_TARGET_PATH_MAX + 200];
    harness_target_format(&o->target, target, sizeof target);
    cJSON_AddStringToObject(root, "format", "gmfuzz-bisect-v1");
    cJSON_AddStringToObject(root, "search",
                            r->kind == HISTORY_BISECT_FIXED ? "fixed" : "introduced");
    cJSON_AddStringToObject(root, "reproducer", repro);
    cJSON_AddStringToObject(root, "bucket", r->recorded);
    cJSON_AddStringToObject(root, "repo", o->repo);
    cJSON_AddStringToObject(root, "target", target);
    cJSON_AddItemToObject(root, "build", o->build ? cJSON_CreateString(o->build)
                                                  : cJSON_CreateNull());
    cJSON_AddItemToObject(root, "good", history_record_commit(&r->good));
    cJSON_AddItemToObject(root, "bad", history_record_commit(&r->bad));
    history_record_answer(root, r);
    return root;
}

bool history_record_append(const char *path, const cJSON *doc, gm_error *err) {
    char *text = cJSON_PrintUnformatted(doc);
    if (text == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory writing the record", path);
    }
    FILE *f = fopen(path, "a");
    bool ok = f != NULL && fprintf(f, "%s\n", text) > 0;
    ok = (f == NULL || fclose(f) == 0) && ok;
    cJSON_free(text);
    return ok || gm_error_set(err, GM_ERR_IO, "%s: cannot append the record: %s", path,
                              strerror(errno));
}

void history_record_path(const char *repro, char *out, size_t size) {
    size_t n = strlen(repro);
    if (n > 5 && strcmp(repro + n - 5, ".json") == 0) {
        n -= 5;
    }
    snprintf(out, size, "%.*s.bisect.jsonl", (int)n, repro);
}
