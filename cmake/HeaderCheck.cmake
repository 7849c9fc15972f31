# ibburn_header_check(NAME DIRS dir... LIBS lib...): an object library of one generated
# translation unit per header under DIRS (relative to the source dir), each including only
# that header, so a header that misses an include of its own fails the build instead of
# compiling by luck of its includers' order. LIBS give the include paths and definitions.
function(ibburn_header_check name)
  cmake_parse_arguments(H "" "" "DIRS;LIBS" ${ARGN})
  set(globs "")
  foreach(dir ${H_DIRS})
    list(APPEND globs ${CMAKE_SOURCE_DIR}/${dir}/*.h)
  endforeach()
  file(GLOB_RECURSE headers RELATIVE ${CMAKE_SOURCE_DIR} CONFIGURE_DEPENDS ${globs})
  set(units "")
  foreach(header ${headers})
    set(unit ${CMAKE_BINARY_DIR}/header-check/${header}.cpp)
    file(CONFIGURE OUTPUT ${unit} CONTENT "#include \"${header}\"\n")
    list(APPEND units ${unit})
  endforeach()
  add_library(${name} OBJECT ${units})
  target_link_libraries(${name} PRIVATE ${H_LIBS})
endfunction()
