# IBBURN_SANITIZE: a comma-separated -fsanitize= list ("address,undefined" or "thread"),
# applied to every C and C++ target and link. Empty: no sanitizer.
set(IBBURN_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address,undefined or thread")
if(IBBURN_SANITIZE)
  message(STATUS "ibburn: sanitizers ${IBBURN_SANITIZE}")
  # Frame pointers for readable stacks; UB is fatal so ctest sees it as a failure. -O1 -g1
  # (after the build type's -O2 -g, so they win): line tables are all a report's stack needs,
  # and -O2 with full debug info made an instrumented test file compile 2-2.4x slower
  # (ASan+UBSan 41 s against 17 s, TSan 15 s against 7 s, one file of tests/run).
  set(ibburn_sanitize_flags -fsanitize=${IBBURN_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all -O1 -g1)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${ibburn_sanitize_flags}>")
  add_link_options(-fsanitize=${IBBURN_SANITIZE})
endif()
