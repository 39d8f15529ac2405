#include "campaign_checked.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void campaign_checked_note(campaign_checked_wait *c, const campaign_worker *w, double now) {
    if (!w->proc.running) {
        return;
    }
    bool starting = !w->stats.target_started;
    double since = starting ? w->started_s : w->answer_seen_s;
    double wait = now - since > 0 ? now - since : 0;
    double had = starting ? 0 : now - w->target_started_s;
    if (!starting) {
        c->jobs++;
        c->had_s += had;
        if (wait >= CAMPAIGN_CHECKED_WAIT_MIN_S) {
            c->waiting++;
            c->waited_s += wait;
            if (wait > c->waiter_s) {
                snprintf(c->waiter, sizeof c->waiter, "%s", w->name);
                c->waiter_s = wait;
            }
        }
    }
    if (c->job[0] != '\0' && wait <= c->wait_s) {
        return;
    }
    snprintf(c->job, sizeof c->job, "%s", w->name);
    c->wait_s = wait;
    c->target_s = had;
    c->starting = starting;
}

static void campaign_checked_add(char *out, size_t size, const char *what) {
    size_t len = strlen(out);
    snprintf(out + len, size - len, "%s%s", len > 0 ? "; " : "", what);
}

/* The sentence about the longest wait at the end. */
static void campaign_checked_say_wait(const campaign_checked_wait *w, char *out, size_t size) {
    if (w->job[0] == '\0' || (!w->starting && w->wait_s < CAMPAIGN_CHECKED_SAY_S)) {
        out[0] = '\0';
    } else if (w->starting) {
        snprintf(out, size, "the budget ended while %s's target had not finished its start-up "
                            "(%.1f s into it)", w->job, w->wait_s);
    } else {
        snprintf(out, size, "the budget ended while a call was in flight: %s had waited %.1f s "
                            "on its target's answer", w->job, w->wait_s);
    }
}

/* Whether the jobs' unanswered waits at the end were most of the time
 * their targets had, and the sentence that says so. */
static bool campaign_checked_mostly_waited(const campaign_checked_wait *w, char *out,
                                           size_t size) {
    if (w->waiting == 0 || w->waited_s <= 0.5 * w->had_s) {
        return false;
    }
    if (w->jobs == 1) {
        snprintf(out, size, "most of the budget went into one unanswered wait: %s had waited "
                            "%.1f s of the %.1f s its target had since its start-up on one "
                            "batch of calls (no answer said since)",
                 w->waiter, w->waited_s, w->had_s);
    } else {
        snprintf(out, size, "most of the jobs' time went into unanswered waits: %d of %d jobs "
                            "were waiting on their target when the budget ended, %.1f s of the "
                            "%.1f s their targets had since their start-ups (the longest: %s, "
                            "%.1f s)",
                 w->waiting, w->jobs, w->waited_s, w->had_s, w->waiter, w->waiter_s);
    }
    return true;
}

/* The first job that had not done its --cases when the budget ended. */
static bool campaign_checked_cases_short(const campaign_checked_facts *f, char *out,
                                         size_t size) {
    for (int i = 0; f->cases > 0 && i < f->n_workers; i++) {
        const campaign_worker *w = &f->workers[i];
        uint64_t done = campaign_worker_execs(w, 0.0, false);
        if (!w->broken && done < f->cases) {
            snprintf(out, size, "--cases %" PRIu64 " was cut short by --time %g: %s checked %" PRIu64
                                " of its %" PRIu64 " cases when the budget ended",
                     f->cases, f->budget_s, w->name, done, f->cases);
            return true;
        }
    }
    return false;
}

void campaign_checked_judge(const campaign_checked_facts *f, const campaign_checked_wait *w,
                            char *out, size_t size, char *in_flight, size_t in_flight_size) {
    out[0] = '\0';
    char wait[256], what[512];
    campaign_checked_say_wait(w, wait, sizeof wait);
    snprintf(in_flight, in_flight_size, "%s", wait);
    /* Jobs that never said their counts (a foreign engine binary): their
     * executions are all there is to go by. */
    bool counted = f->target->counted_runs > 0;
    uint64_t checked = counted ? f->target->checked : f->execs;
    if (checked == 0) {
        snprintf(what, sizeof what, "the jobs checked no case%s%s", wait[0] ? ": " : "", wait);
        campaign_checked_add(out, size, what);
        return; /* the rest follows from it */
    }
    if (counted && f->external && f->target->answered == 0) {
        snprintf(what, sizeof what, "the target never answered a call (the %" PRIu64
                                    " inputs checked were judged on gmfuzz's own model)%s%s",
                 checked, wait[0] ? "; " : "", wait);
        campaign_checked_add(out, size, what);
        return;
    }
    if (f->budget_ended && campaign_checked_cases_short(f, what, sizeof what)) {
        campaign_checked_add(out, size, what);
    }
    if (f->budget_ended && campaign_checked_mostly_waited(w, what, sizeof what)) {
        campaign_checked_add(out, size, what);
    }
}
