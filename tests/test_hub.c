/* harness_hub: a target hub answers exactly what its target computes in the
 * client's own process, one case or a batch at a time, for several
 * clients; a client whose hub dies gets an error, then reconnects to the
 * hub started again. The hub runs builtin:cpu (no GPU needed): the seam is
 * the same for every target. */
#define _GNU_SOURCE /* memfd_create */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "harness_hub_wire.h"
#include "gm_test.h"
#include "harness_wire.h"

static char hub_name[64];

static pid_t start_hub(int lanes) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        static volatile sig_atomic_t never;
        harness_target_spec spec;
        harness_target_builtin(&spec, HARNESS_BACKEND_CPU);
        gm_error err = {0};
        bool ok = harness_hub_serve(&spec, hub_name, lanes, &never, getppid(), NULL, &err);
        _exit(ok ? 0 : 1);
    }
    return pid;
}

static void stop_hub(pid_t pid) {
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* A backend whose target runs in the hub (waits for the hub to listen). */
static harness_backend *open_client(void) {
    harness_target_spec spec;
    harness_target_builtin(&spec, HARNESS_BACKEND_CPU);
    snprintf(spec.hub, sizeof spec.hub, "%s", hub_name);
    const struct timespec pause = {0, 20 * 1000 * 1000};
    for (int k = 0; k < 3000; k++) { /* 60 s: a loaded machine starts the hub late */
        harness_backend *b = NULL;
        gm_error err = {0};
        if (harness_backend_open_target(&spec, &b, &err)) {
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
 * alternately one at a time and in batches, against builtin:cpu here:
 * through the blocks the clients share with the hub (PLACED batches), and
 * with sharing turned off (BATCH: every case through the socket). */
static void hub_answers_as_the_target(void) {
    pid_t hub = start_hub(2);
    harness_backend *one = open_client(), *two = open_client(), *here = NULL;
    gm_error err = {0};
    CHECK(one != NULL && two != NULL);
    CHECK(harness_backend_open(HARNESS_BACKEND_CPU, &here, &err));
    harness_gen gen;
    harness_gen_seed(&gen, 11);
    gm_case cases[BATCH];
    const gm_case *ptrs[BATCH];
    gm_outputs remote[BATCH], local;
    int same = 0;
    for (int n = 0; one && two && n < CASES / BATCH; n++) {
        for (int i = 0; i < BATCH; i++) {
            gm_case_init(&cases[i]);
            gm_outputs_init(&remote[i]);
            CHECK(harness_gen_case(&gen, &cases[i], &err));
            ptrs[i] = &cases[i];
        }
        harness_backend *client = n % 2 ? one : two;
        if (n % 4 < 2) {
            CHECK(harness_backend_run_batch(client, ptrs, remote, BATCH, &err));
        } else {
            for (int i = 0; i < BATCH; i++) {
                CHECK(harness_backend_run(client, &cases[i], &remote[i], &err));
            }
        }
        for (int i = 0; i < BATCH; i++) {
            gm_outputs_init(&local);
            CHECK(harness_backend_run(here, &cases[i], &local, &err));
            same += same_outputs(&remote[i], &local);
            gm_outputs_free(&local);
            gm_outputs_free(&remote[i]);
            gm_case_free(&cases[i]);
        }
    }
    CHECK_EQ_I64(same, CASES);
    harness_backend_close(one);
    harness_backend_close(two);
    harness_backend_close(here);
    stop_hub(hub);
}

static void test_hub_answers_as_the_target(void) { hub_answers_as_the_target(); }

static void test_hub_answers_as_the_target_without_sharing(void) {
    setenv("GMFUZZ_HUB_NO_SHARE", "1", 1);
    hub_answers_as_the_target();
    unsetenv("GMFUZZ_HUB_NO_SHARE");
}

/* One generated case (of `seed`) through `client`: whether it ran. */
static bool run_generated(harness_backend *client, uint64_t seed) {
    harness_gen gen;
    harness_gen_seed(&gen, seed);
    gm_case c;
    gm_case_init(&c);
    gm_outputs out;
    gm_outputs_init(&out);
    gm_error err = {0};
    bool ran = harness_gen_case(&gen, &c, &err) && harness_backend_run(client, &c, &out, &err);
    gm_outputs_free(&out);
    gm_case_free(&c);
    return ran;
}

/* A raw connection to the hub, its HELLO read; -1 when none. */
static int raw_connect(uint32_t *flags) {
    struct sockaddr_un a;
    unsigned len = 0;
    const struct timespec pause = {0, 20 * 1000 * 1000};
    CHECK(harness_hub_wire_address(hub_name, &a, &len));
    for (int k = 0; k < 3000; k++) { /* 60 s: a loaded machine starts the hub late */
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&a, len) == 0) {
            harness_wire_type type;
            char *payload = NULL;
            size_t n = 0;
            bool has = false;
            gm_target_record record;
            gm_error err = {0};
            bool ok = harness_wire_receive(fd, &type, &payload, &n) && type == HARNESS_WIRE_HELLO &&
                      harness_hub_wire_read_hello(payload, n, &has, &record, flags, &err);
            free(payload);
            if (ok) {
                gm_target_record_free(&record);
                return fd;
            }
        }
        if (fd >= 0) {
            close(fd);
        }
        nanosleep(&pause, NULL);
    }
    return -1;
}

/* A PLACED launch that points past the client's block is refused: the hub
 * drops that client (runs nothing of it) and goes on serving the others. */
static void test_hub_refuses_a_launch_outside_the_block(void) {
    pid_t hub = start_hub(1);
    uint32_t flags = 0;
    int fd = raw_connect(&flags);
    CHECK(fd >= 0);
    CHECK((flags & HARNESS_HUB_TAKES_PLACED) != 0);
    int block = memfd_create("test-hub-block", MFD_CLOEXEC);
    uint64_t size = 4096;
    CHECK(block >= 0 && ftruncate(block, (off_t)size) == 0);
    CHECK(harness_wire_send_fd(fd, HARNESS_WIRE_SHARE, &size, sizeof size, block));
    harness_layout_launch l;
    memset(&l, 0, sizeof l);
    l.span = (harness_layout_span){256, 512, 768, 768 + HARNESS_LAYOUT_STATUS_BYTES};
    l.params.bs = 1;
    l.params.req_pool_indices = (const int64_t *)(uintptr_t)256;
    l.params.seq_lens = (const int64_t *)(uintptr_t)(1 << 20); /* past the block */
    l.params.page_size = 1;
    size_t len = 0;
    char *placed = harness_hub_wire_placed(&l, 1, &len);
    CHECK(placed != NULL && harness_wire_send(fd, HARNESS_WIRE_PLACED, placed, len));
    free(placed);
    char byte;
    CHECK_EQ_I64(recv(fd, &byte, 1, 0), 0); /* hung up on, no answer */
    close(fd);
    close(block);
    harness_backend *client = open_client();
    CHECK(client != NULL && run_generated(client, 5));
    harness_backend_close(client);
    stop_hub(hub);
}

/* The hub dies: the run in flight fails as a device error naming the hub;
 * once a hub listens again, the next run reconnects and succeeds. */
static void test_client_survives_a_dead_hub(void) {
    pid_t hub = start_hub(1);
    harness_backend *client = open_client();
    CHECK(client != NULL);
    harness_gen gen;
    harness_gen_seed(&gen, 3);
    gm_case c;
    gm_case_init(&c);
    gm_outputs out;
    gm_outputs_init(&out);
    gm_error err = {0};
    CHECK(harness_gen_case(&gen, &c, &err));
    CHECK(client && harness_backend_run(client, &c, &out, &err));
    stop_hub(hub);
    gm_error lost = {0};
    CHECK(client && !harness_backend_run(client, &c, &out, &lost));
    CHECK_EQ_I64(lost.code, GM_ERR_DEVICE);
    CHECK(strstr(lost.msg, hub_name) != NULL);
    CHECK(client && harness_backend_restart_counts(client).crashed == 1);
    hub = start_hub(1);
    gm_error again = {0};
    CHECK(client && harness_backend_run(client, &c, &out, &again));
    gm_outputs_free(&out);
    gm_case_free(&c);
    harness_backend_close(client);
    stop_hub(hub);
}

int main(void) {
    snprintf(hub_name, sizeof hub_name, "gmfuzz-test-hub-%d", (int)getpid());
    GM_RUN(test_hub_answers_as_the_target);
    GM_RUN(test_hub_answers_as_the_target_without_sharing);
    GM_RUN(test_hub_refuses_a_launch_outside_the_block);
    GM_RUN(test_client_survives_a_dead_hub);
    GM_TEST_END();
}
