# A clean build made cheap, for CI (a clean clone, 2 cores, no ccache, 90 minutes for the normal,
# ASan, TSan and fuzz builds together) and for a first ./run.sh without ccache. deps.sh turns
# UA_FAST_BUILD on when CI=true or ccache is missing; the sanitizer builds always build this way.
#   - a unity build of the libraries (16 sources a unit): the Qt and stack headers parsed once a
#     unit instead of once a source (about 4 s of a test's or window's 5-9 s of compile time is
#     those headers); files that cannot share a unit say so with SKIP_UNITY_BUILD_INCLUSION;
#   - precompiled Qt and standard headers and the generated types for the tests (ua_test_pch);
#   - -g1 instead of -g in the normal build (the sanitizer builds have their own flags).
# Not for the ccache'd developer build: a unity unit recompiles with any of its 16 sources, and
# ccache does not cache a compile that uses a precompiled header.
# The linker is lld when the compiler can use it (Debian: lld), in every build: it links a test
# against the 600 MB libua.a with debug information in a quarter of ld.bfd's time.
option(UA_FAST_BUILD "Unity build of the libraries and precompiled headers for the tests (a clean build without ccache)" OFF)
# CI's normal build (deps.sh passes it when CI=true): -O1 instead of -O2. CI runs the suite on it and
# nobody measures speed there; a GCC unit compiles in about 0.85x the time (docs/Reliability.md "CI").
# The developer's and run.sh's builds stay at -O2.
option(UA_CI_BUILD "CI's normal build: -O1 instead of -O2" OFF)

if(UA_FAST_BUILD OR UA_SANITIZE)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 16)
  set(UA_TEST_PCH ON)
  if(NOT UA_SANITIZE)
    # Line tables and functions, no variables: backtraces keep file:line, and a test compiles in
    # about 0.8x the time of -g, links faster and its precompiled header loads faster.
    foreach(_config RELWITHDEBINFO DEBUG)
      string(REPLACE "-g " "-g1 " CMAKE_CXX_FLAGS_${_config} "${CMAKE_CXX_FLAGS_${_config}} ")
    endforeach()
    if(UA_CI_BUILD)
      string(REPLACE "-O2" "-O1" CMAKE_CXX_FLAGS_RELWITHDEBINFO "${CMAKE_CXX_FLAGS_RELWITHDEBINFO}")
    endif()
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # A source in a unity unit is an included file to gcc, so a class it defines with a member of
    # an anonymous-namespace type looks like a header's (only the unity build warns).
    add_compile_options(-Wno-subobject-linkage)
  endif()
  message(STATUS "UA_FAST_BUILD: unity build of the libraries, precompiled headers for the tests")
else()
  set(UA_TEST_PCH OFF)
endif()

include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=lld" UA_HAVE_LLD)
if(UA_HAVE_LLD)
  add_link_options(-fuse-ld=lld)
endif()
