/* gm_hub: a target hub answers exactly what its target computes in the
 * client's own process, one case or a batch at a time, for several
 * clients; a client whose hub dies gets an error, then reconnects to the
 * hub started again. The hub runs builtin:cpu (no GPU needed): the seam is
 * the same for every target. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gm_backend.h"
#include "gm_gen.h"
#include "gm_hub.h"
#include "gm_test.h"

static char hub_name[64];

static pid_t start_hub(int lanes) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        static volatile sig_atomic_t never;
        gm_target_spec spec;
        gm_target_builtin(&spec, GM_BACKEND_CPU);
        gm_error err = {0};
        bool ok = gm_hub_serve(&spec, hub_name, lanes, &never, getppid(), NULL, &err);
        _exit(ok ? 0 : 1);
    }
    return pid;
}

static void stop_hub(pid_t pid) {
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* A backend whose target runs in the hub (waits for the hub to listen). */
static gm_backend *open_client(void) {
    gm_target_spec spec;
    gm_target_builtin(&spec, GM_BACKEND_CPU);
    snprintf(spec.hub, sizeof spec.hub, "%s", hub_name);
    const struct timespec pause = {0, 20 * 1000 * 1000};
    for (int k = 0; k < 250; k++) {
        gm_backend *b = NULL;
        gm_error err = {0};
        if (gm_backend_open_target(&spec, &b, &err)) {
            return b;
        }
        nanosleep(&pause, NULL);
    }
    return NULL;
}

/* Whether the two runs wrote the same buffers and the same error. */
static bool same_outputs(const gm_outputs *a, const gm_outputs *b) {
    if ((a->error == NULL) != (b->error == NULL) ||
        (a->error != NULL && strcmp(a->error, b->error) != 0)) {
        return false;
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        const gm_buffer *x = &a->buf[id], *y = &b->buf[id];
        size_t bytes = gm_buffer_count(x) * (x->is_int64 ? 8 : 4);
        if (x->present != y->present || gm_buffer_count(x) != gm_buffer_count(y) ||
            (bytes > 0 && memcmp(x->data, y->data, bytes) != 0)) {
            return false;
        }
    }
    return true;
}

enum { CASES = 400, BATCH = 8 };

/* CASES generated cases through two clients of a hub of two lanes,
 * alternately one at a time and in batches, against builtin:cpu here. */
static void test_hub_answers_as_the_target(void) {
    pid_t hub = start_hub(2);
    gm_backend *one = open_client(), *two = open_client(), *here = NULL;
    gm_error err = {0};
    CHECK(one != NULL && two != NULL);
    CHECK(gm_backend_open(GM_BACKEND_CPU, &here, &err));
    gm_gen gen;
    gm_gen_seed(&gen, 11);
    gm_case cases[BATCH];
    const gm_case *ptrs[BATCH];
    gm_outputs remote[BATCH], local;
    int same = 0;
    for (int n = 0; one && two && n < CASES / BATCH; n++) {
        for (int i = 0; i < BATCH; i++) {
            gm_case_init(&cases[i]);
            gm_outputs_init(&remote[i]);
            CHECK(gm_gen_case(&gen, &cases[i], &err));
            ptrs[i] = &cases[i];
        }
        gm_backend *client = n % 2 ? one : two;
        if (n % 4 < 2) {
            CHECK(gm_backend_run_batch(client, ptrs, remote, BATCH, &err));
        } else {
            for (int i = 0; i < BATCH; i++) {
                CHECK(gm_backend_run(client, &cases[i], &remote[i], &err));
            }
        }
        for (int i = 0; i < BATCH; i++) {
            gm_outputs_init(&local);
            CHECK(gm_backend_run(here, &cases[i], &local, &err));
            same += same_outputs(&remote[i], &local);
            gm_outputs_free(&local);
            gm_outputs_free(&remote[i]);
            gm_case_free(&cases[i]);
        }
    }
    CHECK_EQ_I64(same, CASES);
    gm_backend_close(one);
    gm_backend_close(two);
    gm_backend_close(here);
    stop_hub(hub);
}

/* The hub dies: the run in flight fails as a device error naming the hub;
 * once a hub listens again, the next run reconnects and succeeds. */
static void test_client_survives_a_dead_hub(void) {
    pid_t hub = start_hub(1);
    gm_backend *client = open_client();
    CHECK(client != NULL);
    gm_gen gen;
    gm_gen_seed(&gen, 3);
    gm_case c;
    gm_case_init(&c);
    gm_outputs out;
    gm_outputs_init(&out);
    gm_error err = {0};
    CHECK(gm_gen_case(&gen, &c, &err));
    CHECK(client && gm_backend_run(client, &c, &out, &err));
    stop_hub(hub);
    gm_error lost = {0};
    CHECK(client && !gm_backend_run(client, &c, &out, &lost));
    CHECK_EQ_I64(lost.code, GM_ERR_DEVICE);
    CHECK(strstr(lost.msg, hub_name) != NULL);
    CHECK(client && gm_backend_restart_counts(client).crashed == 1);
    hub = start_hub(1);
    gm_error again = {0};
    CHECK(client && gm_backend_run(client, &c, &out, &again));
    gm_outputs_free(&out);
    gm_case_free(&c);
    gm_backend_close(client);
    stop_hub(hub);
}

int main(void) {
    snprintf(hub_name, sizeof hub_name, "gmfuzz-test-hub-%d", (int)getpid());
    GM_RUN(test_hub_answers_as_the_target);
    GM_RUN(test_client_survives_a_dead_hub);
    GM_TEST_END();
}
