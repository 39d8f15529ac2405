# cJSON, the project's one JSON library (Debian: libcjson-dev).
#
# The header and library are looked up directly first: Debian's CMake
# package for cJSON hardcodes /usr paths, so a copy unpacked into another
# prefix (the GPU machine cannot install packages; CMAKE_PREFIX_PATH points
# there) would make find_package fail hard. The package is the fallback for
# installs the plain search does not see.
find_path(GMFUZZ_CJSON_INCLUDE_DIR cjson/cJSON.h)
find_library(GMFUZZ_CJSON_LIBRARY NAMES cjson)
if(NOT GMFUZZ_CJSON_INCLUDE_DIR OR NOT GMFUZZ_CJSON_LIBRARY)
  find_package(cJSON CONFIG QUIET)
  if(cJSON_FOUND)
    set(GMFUZZ_CJSON_INCLUDE_DIR ${CJSON_INCLUDE_DIRS})
    set(GMFUZZ_CJSON_LIBRARY ${CJSON_LIBRARIES})
  endif()
endif()
if(NOT GMFUZZ_CJSON_INCLUDE_DIR OR NOT GMFUZZ_CJSON_LIBRARY)
  message(FATAL_ERROR "cJSON not found: install libcjson-dev (apt-get install -y libcjson-dev) "
                      "or point CMAKE_PREFIX_PATH at a prefix holding include/cjson/cJSON.h")
endif()
add_library(gmfuzz_cjson INTERFACE)
target_include_directories(gmfuzz_cjson SYSTEM INTERFACE ${GMFUZZ_CJSON_INCLUDE_DIR})
target_link_libraries(gmfuzz_cjson INTERFACE ${GMFUZZ_CJSON_LIBRARY})
message(STATUS "gmfuzz: cJSON ${GMFUZZ_CJSON_LIBRARY}")
