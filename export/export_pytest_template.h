/* export_pytest_template: the fixed part of an exported pytest file,
 * export/export_pytest_template.py, embedded as bytes by export/CMakeLists.txt
 * (the definition is generated in the build tree). The exporter writes
 * the reproducer's data in place of the line holding EXPORT_PYTEST_TEMPLATE_MARKER. */
#ifndef EXPORT_PYTEST_TEMPLATE_H
#define EXPORT_PYTEST_TEMPLATE_H

#define EXPORT_PYTEST_TEMPLATE_MARKER "# @GMFUZZ_DATA@"

/* NUL-terminated ASCII text of export/export_pytest_template.py. */
extern const unsigned char export_pytest_template[];

#endif
