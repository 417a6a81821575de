# Installing hetcoll: the `hetcoll` command, the libraries, their public
# headers, a CMake package (find_package(hetcoll) -> hetcoll::hetcoll) and one
# pkg-config file per library. docs/DEVELOPING.md "Installing" explains it.
#
# This file is the one place that knows how things are installed. A library
# target takes part with two calls, written next to its add_library():
#
#   hetcoll_install_library(<target> [EXPORT_NAME <name>] [DESCRIPTION <text>]
#                           [WITH <interface target>...])
#       Installs the target and the headers of its HEADERS file set
#       (target_sources(<target> PUBLIC FILE_SET HEADERS BASE_DIRS src FILES ...)),
#       exports it as hetcoll::<name> (default: the target name without the
#       "hetcoll_" prefix; `hetcoll` stays hetcoll::hetcoll) and writes
#       <target with _ as ->.pc. Every library but `hetcoll` is a component:
#       its targets (and the WITH targets, helpers it links) go to their own
#       export file, which the package loads -- and whose dependencies it
#       looks for -- only for find_package(hetcoll COMPONENTS <name>). So a
#       consumer of the core library never needs MPI.
#
#   hetcoll_package_dependency(<target>
#       [CMAKE <line>...]            code the package config runs first, e.g.
#                                    "find_dependency(MPI COMPONENTS CXX)"
#       [PKGCONFIG <module>...]      pkg-config modules needed to link it
#       [LIBS <flag>...]             link flags of libraries without a .pc file
#       [MODULES <file>...])         find modules the CMAKE lines use
#                                    (installed next to hetcollConfig.cmake)
#       Records what a consumer needs to link <target>. A static library needs
#       even its PRIVATE dependencies at link time (CMake exports them as
#       $<LINK_ONLY:...>), so every library the target links, public or
#       private, is listed here -- except header-only ones linked through
#       $<BUILD_INTERFACE:...>, which never reach a consumer. Link imported
#       targets (fmt::fmt, PkgConfig::CLP, QSopt_ex::QSopt_ex), never a path
#       such as ${FOO_LIBRARY}: the exported targets would carry the build
#       machine's absolute path (the `install` test refuses it), while the
#       CMAKE lines make the same imported target on the consumer's machine.
#       For a pkg-config module that is
#         CMAKE "hetcoll_find_pkgconfig(CLP clp)"      (-> PkgConfig::CLP,
#       the same prefix as pkg_check_modules(CLP ... IMPORTED_TARGET clp)).
#
# hetcoll_write_package() (called once, at the end of the top-level
# CMakeLists.txt) writes the package files from what was recorded.
#
# Public headers never include a private dependency (nlohmann_json,
# pugixml, fmt, LP solvers): tests/install/run_install_test.sh checks every
# installed header and builds examples/cpp against the installed package.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(HETCOLL_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/hetcoll" CACHE STRING
    "Where the CMake package files are installed (relative to the prefix)")

define_property(GLOBAL PROPERTY HETCOLL_INSTALLED_LIBRARIES BRIEF_DOCS "hetcoll libraries to install" FULL_DOCS "-")

# The export set (and file) of a library: hetcollTargets for the core library,
# hetcoll-<name>Targets for a component.
function(hetcoll_export_set_of export_name out)
  if(export_name STREQUAL "hetcoll")
    set(${out} hetcollTargets PARENT_SCOPE)
  else()
    set(${out} hetcoll-${export_name}Targets PARENT_SCOPE)
  endif()
endfunction()

function(hetcoll_install_library target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "EXPORT_NAME;DESCRIPTION" "WITH")
  if(NOT arg_EXPORT_NAME)
    string(REGEX REPLACE "^hetcoll_" "" arg_EXPORT_NAME "${target}")
  endif()
  if(NOT arg_DESCRIPTION)
    set(arg_DESCRIPTION "hetcoll: collective communication plans for heterogeneous clusters")
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${arg_EXPORT_NAME})
  if(NOT TARGET hetcoll::${arg_EXPORT_NAME})
    add_library(hetcoll::${arg_EXPORT_NAME} ALIAS ${target})
  endif()
  set_property(TARGET ${target} PROPERTY HETCOLL_PACKAGE_DESCRIPTION "${arg_DESCRIPTION}")
  hetcoll_export_set_of(${arg_EXPORT_NAME} export_set)
  install(TARGETS ${target} EXPORT ${export_set}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  if(arg_WITH)
    install(TARGETS ${arg_WITH} EXPORT ${export_set})
  endif()
  set_property(GLOBAL APPEND PROPERTY HETCOLL_INSTALLED_LIBRARIES ${target})
endfunction()

function(hetcoll_package_dependency target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "CMAKE;PKGCONFIG;LIBS;MODULES")
  set_property(TARGET ${target} APPEND PROPERTY HETCOLL_PACKAGE_CMAKE ${arg_CMAKE})
  foreach(module ${arg_MODULES})
    cmake_path(ABSOLUTE_PATH module NORMALIZE)
    set_property(GLOBAL APPEND PROPERTY HETCOLL_PACKAGE_MODULES ${module})
  endforeach()
  set_property(TARGET ${target} APPEND PROPERTY HETCOLL_PACKAGE_PKGCONFIG ${arg_PKGCONFIG})
  set_property(TARGET ${target} APPEND PROPERTY HETCOLL_PACKAGE_LIBS ${arg_LIBS})
endfunction()

function(hetcoll_write_package)
  get_property(libraries GLOBAL PROPERTY HETCOLL_INSTALLED_LIBRARIES)
  set(core_dependency_code "")
  set(components "")
  foreach(target ${libraries})
    get_target_property(export_name ${target} EXPORT_NAME)
    hetcoll_export_set_of(${export_name} export_set)
    install(EXPORT ${export_set} NAMESPACE hetcoll:: DESTINATION ${HETCOLL_INSTALL_CMAKEDIR})
    get_target_property(cmake_lines ${target} HETCOLL_PACKAGE_CMAKE)
    set(dependency_code "")
    if(cmake_lines)
      list(REMOVE_DUPLICATES cmake_lines)
      foreach(line ${cmake_lines})
        string(APPEND dependency_code "${line}\n")
      endforeach()
    endif()
    if(export_name STREQUAL "hetcoll")
      set(core_dependency_code "${dependency_code}")
    else()
      # hetcoll-<name>.cmake: what hetcollConfig.cmake includes for the component.
      list(APPEND components ${export_name})
      set(text "# Component ${export_name} of the hetcoll package (hetcoll::${export_name}), loaded by\n")
      string(APPEND text "# hetcollConfig.cmake for find_package(hetcoll COMPONENTS ${export_name}). Generated by\n")
      string(APPEND text "# cmake/HetcollPackage.cmake. A missing dependency returns early (find_dependency).\n")
      string(APPEND text "${dependency_code}")
      string(APPEND text "include(\"\${CMAKE_CURRENT_LIST_DIR}/${export_set}.cmake\")\n")
      string(APPEND text "set(hetcoll_${export_name}_FOUND TRUE)\n")
      file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/package/hetcoll-${export_name}.cmake CONTENT "${text}")
      install(FILES ${PROJECT_BINARY_DIR}/package/hetcoll-${export_name}.cmake DESTINATION ${HETCOLL_INSTALL_CMAKEDIR})
    endif()
    hetcoll_write_pkgconfig(${target})
  endforeach()

  get_property(modules GLOBAL PROPERTY HETCOLL_PACKAGE_MODULES)
  if(modules)
    list(REMOVE_DUPLICATES modules)
    install(FILES ${modules} DESTINATION ${HETCOLL_INSTALL_CMAKEDIR})
  endif()
  set(HETCOLL_PACKAGE_DEPENDENCY_CODE "${core_dependency_code}")
  if(components)
    list(JOIN components ", " HETCOLL_PACKAGE_COMPONENTS)
  else()
    set(HETCOLL_PACKAGE_COMPONENTS "none")
  endif()
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hetcollConfig.cmake.in
                                ${PROJECT_BINARY_DIR}/package/hetcollConfig.cmake
                                INSTALL_DESTINATION ${HETCOLL_INSTALL_CMAKEDIR})
  # 0.x: a minor version may change the interface, so only the same minor matches.
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/hetcollConfigVersion.cmake
                                   COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/package/hetcollConfig.cmake
                ${PROJECT_BINARY_DIR}/package/hetcollConfigVersion.cmake
          DESTINATION ${HETCOLL_INSTALL_CMAKEDIR})
endfunction()

# <target>.pc. A shared library hides its dependencies: they go to
# Requires.private / Libs.private. A static library (the default build)
# cannot: the consumer links them itself, so they go to Requires / Libs and a
# plain `pkg-config --cflags --libs hetcoll` works. The headers never include
# them either way, so the extra -I flags are harmless.
function(hetcoll_write_pkgconfig target)
  string(REPLACE "_" "-" pc_name "${target}")
  get_target_property(description ${target} HETCOLL_PACKAGE_DESCRIPTION)
  get_target_property(modules ${target} HETCOLL_PACKAGE_PKGCONFIG)
  get_target_property(libs ${target} HETCOLL_PACKAGE_LIBS)
  get_target_property(type ${target} TYPE)
  get_target_property(output_name ${target} OUTPUT_NAME)
  if(NOT output_name)
    set(output_name ${target})
  endif()
  foreach(variable modules libs)
    if(NOT ${variable})
      set(${variable} "")
    endif()
    if(variable STREQUAL "modules" AND NOT target STREQUAL "hetcoll")
      list(PREPEND modules hetcoll)   # a component links the core library
    endif()
    list(REMOVE_DUPLICATES ${variable})
    list(JOIN ${variable} " " ${variable})
  endforeach()
  if(type STREQUAL "SHARED_LIBRARY")
    set(requires_key "Requires.private")
    set(libs_key "Libs.private")
  else()
    set(requires_key "Requires")
    set(libs_key "Libs")
  endif()
  # pcfiledir keeps the file relocatable; libdir may be lib or lib/<triplet>.
  file(RELATIVE_PATH up "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
  string(REGEX REPLACE "/$" "" up "${up}")
  set(text "prefix=\${pcfiledir}/${up}\n")
  string(APPEND text "libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}\nincludedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}\n\n")
  string(APPEND text "Name: ${pc_name}\nDescription: ${description}\nVersion: ${PROJECT_VERSION}\n")
  if(modules)
    string(APPEND text "${requires_key}: ${modules}\n")
  endif()
  string(APPEND text "Cflags: -I\${includedir}\nLibs: -L\${libdir} -l${output_name}")
  if(libs AND libs_key STREQUAL "Libs")
    string(APPEND text " ${libs}")
  endif()
  string(APPEND text "\n")
  if(libs AND libs_key STREQUAL "Libs.private")
    string(APPEND text "Libs.private: ${libs}\n")
  endif()
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/package/${pc_name}.pc CONTENT "${text}")
  install(FILES ${PROJECT_BINARY_DIR}/package/${pc_name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
