# cJSON, the project's one JSON library (Debian: libcjson-dev).
#
# Its CMake package hardcodes /usr paths, so a copy unpacked into another
# prefix (the GPU machine, which cannot install packages) is found through
# CMAKE_PREFIX_PATH by find_path/find_library instead.
find_package(cJSON CONFIG QUIET)
find_path(GMFUZZ_CJSON_INCLUDE_DIR cjson/cJSON.h HINTS ${CJSON_INCLUDE_DIRS})
find_library(GMFUZZ_CJSON_LIBRARY NAMES cjson)
if(NOT GMFUZZ_CJSON_INCLUDE_DIR OR NOT GMFUZZ_CJSON_LIBRARY)
  message(FATAL_ERROR "cJSON not found: install libcjson-dev (apt-get install -y libcjson-dev) "
                      "or point CMAKE_PREFIX_PATH at a prefix holding include/cjson/cJSON.h")
endif()
add_library(gmfuzz_cjson INTERFACE)
target_include_directories(gmfuzz_cjson SYSTEM INTERFACE ${GMFUZZ_CJSON_INCLUDE_DIR})
target_link_libraries(gmfuzz_cjson INTERFACE ${GMFUZZ_CJSON_LIBRARY})
message(STATUS "gmfuzz: cJSON ${GMFUZZ_CJSON_LIBRARY}")
