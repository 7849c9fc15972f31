# The install rules and the Debian package (CPack DEB): `cmake --build build --target package`
# writes build/ibburn_<version>_amd64.deb, its Depends computed by dpkg-shlibdeps from the
# binary's libraries. scripts/package.sh builds it and runs lintian on it. The files lintian
# and Debian policy ask for are in packaging/: the copyright, the changelog (Debian's format,
# installed gzipped), the conffiles list, and the example /etc/ibburn/ibburn.conf.
include(GNUInstallDirs)

# The changelog's newest entry is this version: a release that forgets it fails here, not in lintian.
file(STRINGS ${CMAKE_SOURCE_DIR}/packaging/changelog changelog_top LIMIT_COUNT 1)
if(NOT changelog_top MATCHES "^ibburn \\(${PROJECT_VERSION}\\) ")
  message(FATAL_ERROR "packaging/changelog starts '${changelog_top}', not an entry for ${PROJECT_VERSION}")
endif()
set(changelog_gz ${CMAKE_BINARY_DIR}/changelog.gz)
add_custom_command(OUTPUT ${changelog_gz}
  COMMAND sh -c "gzip -9nc \"$1\" > \"$2\"" sh ${CMAKE_SOURCE_DIR}/packaging/changelog ${changelog_gz}
  DEPENDS ${CMAKE_SOURCE_DIR}/packaging/changelog
  VERBATIM)
add_custom_target(ibburn_changelog ALL DEPENDS ${changelog_gz})

install(TARGETS ibburn RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${IBBURN_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man8 FILES_MATCHING PATTERN "*.8.gz")
install(FILES ${IBBURN_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
# /etc itself, also when the prefix is /usr (the package's).
install(FILES ${CMAKE_SOURCE_DIR}/packaging/ibburn.conf DESTINATION /etc/ibburn)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/packaging/copyright ${changelog_gz}
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# docs/ keeps its name, so the README's links (docs/run.md ...) resolve in the installed copy.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${CMAKE_SOURCE_DIR}/scripts/nightly.sbatch DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
# The Grafana dashboard over ibburn.prom, for a site to import (docs/deploy.md).
install(FILES ${CMAKE_SOURCE_DIR}/deploy/grafana/ibburn-dashboard.json DESTINATION ${CMAKE_INSTALL_DATADIR}/ibburn/grafana)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ibburn)
set(CPACK_PACKAGE_CONTACT "Seed 0b5cd2aa maintainers <maintainers@users.noreply.a-seed-0b5cd2aa.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "certify the InfiniBand fabric of a GPU cluster")
# One string (a list would join its lines with `;`), lines under lintian's 80 columns.
set(CPACK_PACKAGE_DESCRIPTION "ibburn checks an InfiniBand fabric against its wiring list, sweeps the port
counters, runs a GPUDirect preflight on every host and drives every cable near
line rate in both directions, then names the hosts to drain and the cables to
reseat or replace: at fabric acceptance, after recabling, and every night
under Slurm.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_SOURCE_DIR}/packaging/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
