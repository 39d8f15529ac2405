#include <stdio.h>

#include "fused_cpu.h"
#include "harness_backend_cpu.h"
#include "harness_launch.h"

bool harness_backend_cpu_launch(const fused_params *p, char *error, size_t size) {
    fused_oob oob;
    if (fused_cpu_run(p, &oob)) {
        return true;
    }
    char what[160];
    fused_oob_describe(&oob, what, sizeof what);
    snprintf(error, size, "out_of_bounds: %s", what);
    return false;
}

bool harness_backend_cpu_run(const gm_case *c, gm_outputs *out, gm_error *err) {
    (void)err; /* the host execution itself cannot fail */
    fused_params p;
    harness_launch_params(c, out, &p);
    char error[200];
    if (!harness_backend_cpu_launch(&p, error, sizeof error)) {
        gm_outputs_set_error(out, "%s", error);
    }
    return true;
}
