# The portable binary (NCCLCHECK_PORTABLE=ON; docs/install.md): jansson and hwloc linked
# statically, HMAC-SHA256 in-tree instead of libcrypto, every glibc symbol bound to a version
# <= 2.17 through glibc217.c's --wrap shims, and a post-build check (check.sh) that fails the
# build on a newer symbol version, an unexpected shared library or a binary over 5 MB.
if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|aarch64)$")
  message(FATAL_ERROR "the portable build knows x86_64 and aarch64, not ${CMAKE_SYSTEM_PROCESSOR}")
endif()

set(NCCLCHECK_DEPS_PREFIX "" CACHE PATH "static hwloc prefix (default: packaging/portable/deps.sh's cache)")
if(NOT NCCLCHECK_DEPS_PREFIX)
  set(deps_host "")
  if(CMAKE_CROSSCOMPILING)
    set(deps_host ${CMAKE_LIBRARY_ARCHITECTURE})
  endif()
  execute_process(COMMAND env NCCLCHECK_HOST=${deps_host} sh ${CMAKE_CURRENT_LIST_DIR}/deps.sh
    OUTPUT_VARIABLE NCCLCHECK_DEPS_PREFIX OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE deps_rc)
  if(NOT deps_rc EQUAL 0)
    message(FATAL_ERROR "packaging/portable/deps.sh failed: no static hwloc")
  endif()
endif()
find_library(NCCLCHECK_JANSSON_A NAMES libjansson.a)
find_path(NCCLCHECK_JANSSON_INC jansson.h)
if(NOT NCCLCHECK_JANSSON_A OR NOT NCCLCHECK_JANSSON_INC)
  message(FATAL_ERROR "the portable build links libjansson.a: install libjansson-dev")
endif()
if(NOT EXISTS ${NCCLCHECK_DEPS_PREFIX}/lib/libhwloc.a)
  message(FATAL_ERROR "${NCCLCHECK_DEPS_PREFIX}/lib/libhwloc.a is missing (packaging/portable/deps.sh)")
endif()

add_library(ncclcheck_jansson STATIC IMPORTED)
set_target_properties(ncclcheck_jansson PROPERTIES IMPORTED_LOCATION ${NCCLCHECK_JANSSON_A}
  INTERFACE_INCLUDE_DIRECTORIES ${NCCLCHECK_JANSSON_INC})
add_library(ncclcheck_hwloc STATIC IMPORTED)
set_target_properties(ncclcheck_hwloc PROPERTIES IMPORTED_LOCATION ${NCCLCHECK_DEPS_PREFIX}/lib/libhwloc.a
  INTERFACE_INCLUDE_DIRECTORIES ${NCCLCHECK_DEPS_PREFIX}/include)
set(NCCLCHECK_DEP_TARGETS ncclcheck_jansson ncclcheck_hwloc)
add_compile_definitions(NCCLCHECK_OWN_CRYPTO)
add_compile_options(-ffunction-sections -fdata-sections)

# Every --wrap the shim serves, read from the shim itself: one list.
set(NCCLCHECK_SHIM ${CMAKE_CURRENT_LIST_DIR}/glibc217.c)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${NCCLCHECK_SHIM})
file(STRINGS ${NCCLCHECK_SHIM} shim_lines REGEX "^(OLD|OWN)\\(")
set(NCCLCHECK_WRAP_FLAGS "")
foreach(line ${shim_lines})
  string(REGEX REPLACE "^(OLD|OWN)\\(([A-Za-z0-9_]+).*" "\\2" sym "${line}")
  list(APPEND NCCLCHECK_WRAP_FLAGS "LINKER:--wrap=${sym}")
endforeach()
add_library(ncclcheck_glibc217 OBJECT ${NCCLCHECK_SHIM})
target_compile_options(ncclcheck_glibc217 PRIVATE -fno-builtin -fPIE)

function(ncclcheck_make_portable target)
  target_compile_options(ncclcheck_glibc217 PRIVATE ${NCCLCHECK_WARNINGS})
  target_sources(${target} PRIVATE $<TARGET_OBJECTS:ncclcheck_glibc217>)
  # libpthread and libdl stay named: glibc before 2.34 keeps pthread_* and dl* there, and ld
  # would drop them as unneeded against a glibc that merged them into libc.
  target_link_options(${target} PRIVATE ${NCCLCHECK_WRAP_FLAGS} -static-libgcc
    LINKER:--gc-sections LINKER:-O1 LINKER:--no-as-needed -s)
  target_link_libraries(${target} PRIVATE -l:libpthread.so.0 -l:libdl.so.2 m)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND sh ${CMAKE_SOURCE_DIR}/packaging/portable/check.sh $<TARGET_FILE:${target}>
    COMMENT "checking ${target}: glibc symbol versions, shared libraries, size")
endfunction()
