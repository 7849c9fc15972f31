# Writes OUT (app/build_info.h's kBuildInfo) from IN, run at every build as
#   cmake -DIN=... -DOUT=... -DSOURCE_DIR=... -DIBBURN_VERSION=... -DIBBURN_VERBS_VERSION=...
#         -DIBBURN_CUDA_VERSION=... -P BuildInfo.cmake
# adding the commit: `git describe --always --dirty` of SOURCE_DIR, or "unknown" when SOURCE_DIR
# is not the top of a git checkout (a tarball unpacked inside some other repository must not
# name that repository's commit). configure_file rewrites OUT only when it changes, so an
# unchanged commit recompiles and relinks nothing.
set(IBBURN_GIT_COMMIT unknown)
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  file(REAL_PATH "${SOURCE_DIR}" source)
  if(rc EQUAL 0)
    file(REAL_PATH "${top}" top)
  endif()
  if(rc EQUAL 0 AND top STREQUAL source)
    # A checkout without a commit yet has nothing to describe: still "unknown".
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} describe --always --dirty --abbrev=12
                    OUTPUT_VARIABLE described RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(rc EQUAL 0)
      set(IBBURN_GIT_COMMIT ${described})
    endif()
  endif()
endif()
configure_file(${IN} ${OUT} @ONLY)
