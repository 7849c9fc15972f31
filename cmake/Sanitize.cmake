# IBBURN_SANITIZE: a comma-separated -fsanitize= list ("address,undefined" or "thread"),
# applied to every C and C++ target and link. Empty: no sanitizer.
set(IBBURN_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address,undefined or thread")
if(IBBURN_SANITIZE)
  message(STATUS "ibburn: sanitizers ${IBBURN_SANITIZE}")
  # Frame pointers for readable stacks; UB is fatal so ctest sees it as a failure.
  set(ibburn_sanitize_flags -fsanitize=${IBBURN_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${ibburn_sanitize_flags}>")
  add_link_options(-fsanitize=${IBBURN_SANITIZE})
endif()
