# The CUDA backend: built when nvcc is found, else everything CPU-side is
# built and this is said once.
set(GMFUZZ_HAVE_CUDA OFF)
if(GMFUZZ_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # Blackwell (the target of the fused kernel), Hopper (the test GPU),
      # and PTX for whatever comes next.
      set(CMAKE_CUDA_ARCHITECTURES "100a-real;90-real;90-virtual")
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(GMFUZZ_HAVE_CUDA ON)
    message(STATUS "gmfuzz: CUDA backend ON (${CMAKE_CUDA_COMPILER_VERSION}, archs ${CMAKE_CUDA_ARCHITECTURES})")
  else()
    message(STATUS "gmfuzz: nvcc not found: building the CPU backend only (no CUDA backend)")
  endif()
else()
  message(STATUS "gmfuzz: CUDA backend disabled (GMFUZZ_CUDA=OFF)")
endif()
