# `cmake --install build --prefix P` and `cpack`: what a user takes away.
#   lib/libfilterlab.so*               the API, every variant inside (FilterLab::filterlab)
#   lib/filterlab/lib<schedule>.a      one static library per Halide schedule (FilterLab::<schedule>)
#   lib/filterlab/libfilterlab_halide_runtime.a   their one Halide runtime (FilterLab::halide_runtime)
#   lib/filterlab/libfilterlab_<filter>_tvm_<name>.a  one per TVM variant (FilterLab::<filter>_tvm_<name>; a sweep
#                                      point's <name>__<point tag>; named by filterlab_build/library_names.py):
#                                      C launchers filterlab_tvm_<...>() declared by filterlab/tvm/tvm_call.h
#   include/filterlab/                 filterlab.h, filterlab_c.h
#   include/filterlab/halide/          each schedule's generated header, Halide's runtime headers
#   lib/cmake/FilterLab/, lib/pkgconfig/filterlab.pc, share/doc/filterlab/ (Halide's licence)
#   bin/filterlab, share/filterlab/plots.py, lib/filterlab/plugins/   the CLI, its plots, its peer plugins
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS filterlab_api EXPORT FilterLabTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/api/include/filterlab DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT FilterLabTargets NAMESPACE FilterLab:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/FilterLab)

# Every archive of the variants, as the manifest names it (build/variants.json:
# "archives"; cmake/Variants.cmake lists each as
# <language>:<target>:<package target>:<file>:<header>), and the package's
# imported targets of them (FilterLabConfig.cmake.in), <language>:<package target>:<file> each.
get_property(archives GLOBAL PROPERTY FILTERLAB_ARCHIVES)
set(halide_headers ${CMAKE_INSTALL_INCLUDEDIR}/filterlab/halide)
set(FILTERLAB_PACKAGE_ARCHIVES "")
foreach (archive IN LISTS archives)
    string(REPLACE ":" ";" fields "${archive}")
    list(GET fields 0 language)
    list(GET fields 1 target)
    list(GET fields 2 package_target)
    list(GET fields 3 file)
    install(FILES $<TARGET_FILE:${target}> DESTINATION ${CMAKE_INSTALL_LIBDIR}/filterlab)
    if (language STREQUAL "halide")
        list(GET fields 4 header)
        install(FILES ${PROJECT_BINARY_DIR}/schedules/${header} DESTINATION ${halide_headers})
    endif ()
    string(APPEND FILTERLAB_PACKAGE_ARCHIVES " ${language}:${package_target}:${file}")
endforeach ()
install(FILES ${PROJECT_SOURCE_DIR}/runtime/languages/tvm_call.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/filterlab/tvm)
install(FILES $<TARGET_FILE:filterlab_halide_runtime> DESTINATION ${CMAKE_INSTALL_LIBDIR}/filterlab
        RENAME libfilterlab_halide_runtime.a)
get_target_property(halide_include Halide::Runtime INTERFACE_INCLUDE_DIRECTORIES)
install(FILES ${halide_include}/HalideRuntime.h ${halide_include}/HalideRuntimeCuda.h ${halide_include}/HalideBuffer.h
        DESTINATION ${halide_headers})
install(FILES ${halide_include}/../share/doc/Halide/LICENSE.txt DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME HALIDE_LICENSE.txt)

# The CLI: `filterlab report` finds its plots script one folder above bin/
# (share/filterlab/plots.py) and the plugins in lib/filterlab/plugins/; it
# counts lines of code only where a source tree is given (--source).
install(TARGETS filterlab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/scripts/plots.py DESTINATION ${CMAKE_INSTALL_DATADIR}/filterlab)
if (TARGET filterlab_opencv)
    install(TARGETS filterlab_opencv LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/filterlab/plugins)
endif ()

# The package: the exported API target, then the archives as imported
# targets, written from the lists above.
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/package/FilterLabConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/FilterLabConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/FilterLab)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/FilterLabConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/FilterLabConfig.cmake
              ${PROJECT_BINARY_DIR}/package/FilterLabConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/FilterLab)
# The prefix relative to the .pc file's folder, so that the package can move.
file(RELATIVE_PATH FILTERLAB_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/package/filterlab.pc.in ${PROJECT_BINARY_DIR}/package/filterlab.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/filterlab.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

set(CPACK_GENERATOR TGZ)
set(CPACK_PACKAGE_NAME filterlab)
set(CPACK_PACKAGE_VENDOR FilterLab)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "8-bit image filters: Halide schedules and handwritten CUDA kernels")
set(CPACK_PACKAGE_FILE_NAME filterlab-${PROJECT_VERSION}-linux-x86_64)
include(CPack)
