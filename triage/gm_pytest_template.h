/* gm_pytest_template: the fixed part of an exported pytest file,
 * triage/gm_pytest_template.py, embedded as bytes by triage/CMakeLists.txt
 * (the definition is generated in the build tree). The exporter writes
 * the reproducer's data in place of the line holding GM_PYTEST_TEMPLATE_MARKER. */
#ifndef GM_PYTEST_TEMPLATE_H
#define GM_PYTEST_TEMPLATE_H

#define GM_PYTEST_TEMPLATE_MARKER "# @GMFUZZ_DATA@"

/* NUL-terminated ASCII text of triage/gm_pytest_template.py. */
extern const unsigned char gm_pytest_template[];

#endif
