/* history_bisect: the first commit where a finding appears (or, --fixed, is
 * gone), git's own search over the commits between two ends.
 *
 * The search is `git bisect`'s, driven through `git rev-list --bisect-all
 * NEW ^OLD...`, which lists the candidates best first (the commit that
 * halves the rest, by ancestry, so merges are weighed as git weighs them):
 * the first candidate not skipped is tested; a commit in the new state
 * becomes NEW, one in the old state joins the OLDs, one that cannot be
 * tested is skipped, as `git bisect skip` does (git then tests the next
 * best). Nothing of `git bisect` itself runs: its state lives in the
 * repository (.git/BISECT_*, and HEAD), and a search that died would leave
 * the user's repository in the middle of one. Each revision is checked out
 * in a detached worktree of its own (history_checkout.h) and removed after.
 *
 * "Old" and "new" are the two states in commit order: for the commit that
 * introduced a finding, old = it does not reproduce (--good), new = it does
 * (--bad); for the commit that fixed it, old = it reproduces (--bad), new =
 * it does not (--good).
 */
#include "history.h"

#include <stdlib.h>
#include <string.h>

#include "history_checkout.h"
#include "history_git.h"
#include "repro.h"

const char *history_rev_result_name(history_rev_result r) {
    static const char *const names[] = {"reproduces", "gone", "skipped"};
    return names[r];
}

/* The search's state: the ends so far and what was skipped. */
typedef struct {
    const history_bisect_options *o;
    const gm_doc *doc;
    char repo[4096];            /* the repository's top */
    char scratch[4096];
    char newest[HISTORY_HASH_MAX];
    char (*olds)[HISTORY_HASH_MAX];
    size_t n_olds;
    char (*skips)[HISTORY_HASH_MAX];
    size_t n_skips;
    history_bisect_result *out;
} history_bisect_search;

static bool history_bisect_push(char (**list)[HISTORY_HASH_MAX], size_t *n, const char *hash) {
    char(*grown)[HISTORY_HASH_MAX] = realloc(*list, (*n + 1) * sizeof **list);
    if (grown == NULL) {
        return false;
    }
    snprintf(grown[*n], HISTORY_HASH_MAX, "%s", hash);
    *list = grown;
    (*n)++;
    return true;
}

static bool history_bisect_listed(char (*list)[HISTORY_HASH_MAX], size_t n, const char *hash) {
    for (size_t i = 0; i < n; i++) {
        if (strcmp(list[i], hash) == 0) {
            return true;
        }
    }
    return false;
}

/* `git rev-list --bisect-all NEW ^OLD...`: the candidates, best first. */
static bool history_bisect_candidates(const history_bisect_search *s, char **text, gm_error *err) {
    const char **args = calloc(s->n_olds + 5, sizeof *args);
    char(*nots)[HISTORY_HASH_MAX + 1] = calloc(s->n_olds, sizeof *nots);
    bool ok = args != NULL && nots != NULL;
    if (ok) {
        size_t k = 0;
        args[k++] = "rev-list";
        args[k++] = "--bisect-all";
        args[k++] = s->newest;
        for (size_t i = 0; i < s->n_olds; i++) {
            snprintf(nots[i], sizeof nots[i], "^%s", s->olds[i]);
            args[k++] = nots[i];
        }
        args[k++] = "--";
        ok = history_git_run(s->repo, args, text, err);
    } else {
        gm_error_set(err, GM_ERR_MEMORY, "out of memory");
    }
    free(args);
    free(nots);
    return ok;
}

/* The next revision to test into pick ("" when none is left); every
 * candidate besides NEW is also counted into *left and, when skipped, kept
 * as a suspect of an unfinished search. */
static void history_bisect_pick(history_bisect_search *s, char *text, char *pick, size_t *left) {
    pick[0] = '\0';
    *left = 0;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        line[strcspn(line, " ")] = '\0';
        if (strcmp(line, s->newest) == 0) {
            continue;
        }
        (*left)++;
        if (pick[0] == '\0' && !history_bisect_listed(s->skips, s->n_skips, line)) {
            snprintf(pick, HISTORY_HASH_MAX, "%s", line);
        }
    }
}

/* The verdict of the reproducer at the checkout in `dir`; false: skip (why). */
static bool history_bisect_probe(const history_bisect_search *s, const char *dir,
                                 history_bisect_step *step, gm_error *why) {
    const history_bisect_options *o = s->o;
    if (o->build != NULL) {
        char log[4200 + sizeof ".build.log"]; /* dir holds up to 4200 bytes */
        snprintf(log, sizeof log, "%s.build.log", dir);
        if (!history_checkout_build(dir, o->build, log, why)) {
            return false;
        }
    }
    harness_target_spec t = o->target;
    if ((size_t)snprintf(t.path, sizeof t.path, "%s/%s", dir, o->target.path) >= sizeof t.path) {
        return gm_error_set(why, GM_ERR_USAGE, "%s: the target's path is too long", dir);
    }
    harness_backend *b = NULL;
    history_verdict v;
    bool ok = harness_backend_open_target(&t, &b, why) && history_verdict_run(b, s->doc, &v, why);
    harness_backend_close(b);
    if (ok) {
        step->result = v.state == HISTORY_STILL ? HISTORY_REV_REPRODUCES : HISTORY_REV_GONE;
        snprintf(step->bucket, sizeof step->bucket, "%s", v.now);
    }
    return ok;
}

/* Checks `hash` out, probes it, and removes the checkout. */
static bool history_bisect_test(history_bisect_search *s, const char *hash, history_bisect_step *step,
                                gm_error *err) {
    memset(step, 0, sizeof *step);
    if (!history_git_commit(s->repo, hash, "revision", &step->commit, err)) {
        return false;
    }
    char dir[4200];
    if (!history_checkout_add(s->repo, s->scratch, s->out->n_steps, hash, dir, sizeof dir, err)) {
        return false;
    }
    gm_error why = {0};
    if (!history_bisect_probe(s, dir, step, &why)) {
        step->result = HISTORY_REV_SKIPPED;
        snprintf(step->why, sizeof step->why, "%s", why.msg);
    }
    history_checkout_remove(s->repo, dir);
    return true;
}

/* Whether a tested revision is in the search's new state. */
static bool history_bisect_is_new(const history_bisect_search *s, history_rev_result r) {
    return s->o->kind == HISTORY_BISECT_INTRODUCED ? r == HISTORY_REV_REPRODUCES
                                                   : r == HISTORY_REV_GONE;
}

static void history_bisect_say(const history_bisect_search *s, const history_bisect_step *st) {
    if (s->o->progress == NULL) {
        return;
    }
    fprintf(s->o->progress, "  [%zu] %.12s %-10s %s%s%s\n", s->out->n_steps, st->commit.hash,
            history_rev_result_name(st->result), st->commit.subject,
            st->result == HISTORY_REV_SKIPPED ? ": " : "", st->why);
    fflush(s->o->progress);
}

/* Tests one revision and moves the ends by what it gave. */
static bool history_bisect_step_once(history_bisect_search *s, const char *pick, gm_error *err) {
    history_bisect_result *r = s->out;
    history_bisect_step *grown = realloc(r->steps, (r->n_steps + 1) * sizeof *grown);
    if (grown == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory");
    }
    r->steps = grown;
    history_bisect_step *st = &r->steps[r->n_steps];
    if (!history_bisect_test(s, pick, st, err)) {
        return false;
    }
    r->n_steps++;
    r->tested++;
    history_bisect_say(s, st);
    bool ok;
    if (st->result == HISTORY_REV_SKIPPED) {
        r->skipped++;
        ok = history_bisect_push(&s->skips, &s->n_skips, pick);
    } else if (history_bisect_is_new(s, st->result)) {
        snprintf(s->newest, sizeof s->newest, "%s", pick);
        ok = true;
    } else {
        ok = history_bisect_push(&s->olds, &s->n_olds, pick);
    }
    return ok || gm_error_set(err, GM_ERR_MEMORY, "out of memory");
}

/* The end: NEW alone, or NEW among skipped candidates (`text` lists them). */
static bool history_bisect_finish(history_bisect_search *s, char *text, gm_error *err) {
    history_bisect_result *r = s->out;
    size_t n = 0;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        line[strcspn(line, " ")] = '\0';
        bool suspect = strcmp(line, s->newest) == 0 ||
                       history_bisect_listed(s->skips, s->n_skips, line);
        history_commit *grown = suspect ? realloc(r->suspects, (n + 1) * sizeof *grown) : NULL;
        if (suspect && grown == NULL) {
            return gm_error_set(err, GM_ERR_MEMORY, "out of memory");
        }
        if (suspect) {
            r->suspects = grown;
            if (!history_git_commit(s->repo, line, "revision", &r->suspects[n++], err)) {
                return false;
            }
            r->n_suspects = n;
        }
    }
    r->found = n == 1;
    return !r->found || history_git_commit(s->repo, s->newest, "revision", &r->first, err);
}

/* The search proper, the ends resolved. */
static bool history_bisect_loop(history_bisect_search *s, gm_error *err) {
    for (;;) {
        char *text = NULL;
        if (!history_bisect_candidates(s, &text, err)) {
            return false;
        }
        char *copy = strdup(text);
        char pick[HISTORY_HASH_MAX];
        size_t left = 0;
        history_bisect_pick(s, text, pick, &left);
        bool ok = copy != NULL || gm_error_set(err, GM_ERR_MEMORY, "out of memory");
        bool done = pick[0] == '\0';
        ok = ok && (done ? history_bisect_finish(s, copy, err)
                         : history_bisect_step_once(s, pick, err));
        free(text);
        free(copy);
        if (!ok || done) {
            return ok;
        }
    }
}

/* The repository's top, the ends resolved and in order, the bucket. */
static bool history_bisect_start(history_bisect_search *s, gm_error *err) {
    const history_bisect_options *o = s->o;
    history_bisect_result *r = s->out;
    const char *top[] = {"rev-parse", "--show-toplevel", NULL};
    if (!history_git_line(o->repo, top, s->repo, sizeof s->repo, err)) {
        return gm_error_set(err, GM_ERR_USAGE, "--repo %s: not a git work tree", o->repo);
    }
    if (!history_git_commit(s->repo, o->good, "--good", &r->good, err) ||
        !history_git_commit(s->repo, o->bad, "--bad", &r->bad, err)) {
        return false;
    }
    bool introduced = o->kind == HISTORY_BISECT_INTRODUCED;
    const history_commit *old = introduced ? &r->good : &r->bad;
    const history_commit *new = introduced ? &r->bad : &r->good;
    if (strcmp(old->hash, new->hash) == 0) {
        return gm_error_set(err, GM_ERR_USAGE, "--good and --bad are the same commit %.12s",
                            old->hash);
    }
    const char *order[] = {"merge-base", "--is-ancestor", old->hash, new->hash, NULL};
    gm_error ignored = {0};
    if (!history_git_run(s->repo, order, NULL, &ignored)) {
        return gm_error_set(err, GM_ERR_USAGE, "%s %.12s is not an ancestor of %s %.12s (%s)",
                            introduced ? "--good" : "--bad", old->hash,
                            introduced ? "--bad" : "--good", new->hash,
                            introduced ? "a regression: good before bad"
                                       : "--fixed: bad before good");
    }
    snprintf(s->newest, sizeof s->newest, "%s", new->hash);
    triage_finding was;
    repro_recorded_finding(s->doc, &was);
    snprintf(r->recorded, sizeof r->recorded, "%s", was.bucket);
    if (was.status == GM_STATUS_MATCH || was.bucket[0] == '\0') {
        return gm_error_set(err, GM_ERR_FORMAT, "the reproducer records no finding");
    }
    if (!history_bisect_push(&s->olds, &s->n_olds, old->hash)) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory");
    }
    return history_checkout_scratch(o->scratch, s->scratch, sizeof s->scratch, err);
}

bool history_bisect_run(const history_bisect_options *o, const gm_doc *doc,
                        history_bisect_result *out, gm_error *err) {
    memset(out, 0, sizeof *out);
    out->kind = o->kind;
    if (doc->kind != GM_DOC_REPRO) {
        return gm_error_set(err, GM_ERR_FORMAT, "not a reproducer (gmfuzz-repro-v1)");
    }
    history_bisect_search s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.doc = doc;
    s.out = out;
    bool ok = history_bisect_start(&s, err) && history_bisect_loop(&s, err);
    if (s.scratch[0] != '\0') {
        history_checkout_rmtree(s.scratch);
        const char *prune[] = {"worktree", "prune", NULL};
        gm_error ignored = {0};
        history_git_run(s.repo, prune, NULL, &ignored);
    }
    free(s.olds);
    free(s.skips);
    return ok;
}

void history_bisect_result_free(history_bisect_result *r) {
    free(r->steps);
    free(r->suspects);
    memset(r, 0, sizeof *r);
}
