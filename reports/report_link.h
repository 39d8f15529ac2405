/* report_link: where a report links a file (a reproducer) from: a path
 * relative to the report's folder, so that the folder still works when it
 * is moved, copied, or uploaded as a CI artifact. */
#ifndef REPORT_LINK_H
#define REPORT_LINK_H

/* The path of `target` relative to folder `from_dir` ("repros/x.json",
 * "../other/x.json"), newly allocated. When either cannot be resolved (a
 * file that is gone), `target` as given. NULL only when memory runs out. */
char *report_link_relative(const char *from_dir, const char *target);

#endif
