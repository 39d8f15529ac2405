/* gmfuzz sweep: structured random cases (harness/harness_gen.c), no coverage,
 * sent to the target in batches, on all cores; findings minimized and
 * reported as `gmfuzz fuzz` does (it is `gmfuzz fuzz --engine sweep`).
 * For GPU targets whose bugs no host-side coverage can see.
 *
 * gmfuzz sweep-job: one job of it (the campaign driver starts them),
 * reading the fuzzing harness's environment (fuzz/fuzz.h) and
 * printing libFuzzer's status lines. */
#ifndef CMD_SWEEP_H
#define CMD_SWEEP_H

int cmd_sweep_main(int argc, char **argv);
int cmd_sweep_job_main(int argc, char **argv);

#endif
