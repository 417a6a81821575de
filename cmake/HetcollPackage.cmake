# Installing hetcoll: the `hetcoll` command, the libraries, their public
# headers, a CMake package (find_package(hetcoll) -> hetcoll::hetcoll) and one
# pkg-config file per library. docs/DEVELOPING.md "Installing" explains it.
#
# This file is the one place that knows how things are installed. A library
# target takes part with two calls, written next to its add_library():
#
#   hetcoll_install_library(<target> [EXPORT_NAME <name>] [DESCRIPTION <text>])
#       Installs the target and the headers of its HEADERS file set
#       (target_sources(<target> PUBLIC FILE_SET HEADERS BASE_DIRS src FILES ...)),
#       exports it as hetcoll::<name> (default: the target name without the
#       "hetcoll_" prefix; `hetcoll` stays hetcoll::hetcoll) and writes
#       <target with _ as ->.pc. find_package(hetcoll COMPONENTS <name>)
#       then succeeds only when that library was built.
#
#   hetcoll_package_dependency(<target>
#       [CMAKE <line>...]            code the package config runs first, e.g.
#                                    "find_dependency(MPI COMPONENTS CXX)"
#       [PKGCONFIG <module>...]      pkg-config modules needed to link it
#       [LIBS <flag>...])            link flags of libraries without a .pc file
#       Records what a consumer needs to link <target>. A static library needs
#       even its PRIVATE dependencies at link time (CMake exports them as
#       $<LINK_ONLY:...>), so every library the target links, public or
#       private, is listed here -- except header-only ones linked through
#       $<BUILD_INTERFACE:...>, which never reach a consumer.
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

function(hetcoll_install_library target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "EXPORT_NAME;DESCRIPTION" "")
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
  install(TARGETS ${target} EXPORT hetcollTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set_property(GLOBAL APPEND PROPERTY HETCOLL_INSTALLED_LIBRARIES ${target})
endfunction()

function(hetcoll_package_dependency target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "CMAKE;PKGCONFIG;LIBS")
  set_property(TARGET ${target} APPEND PROPERTY HETCOLL_PACKAGE_CMAKE ${arg_CMAKE})
  set_property(TARGET ${target} APPEND PROPERTY HETCOLL_PACKAGE_PKGCONFIG ${arg_PKGCONFIG})
  set_property(TARGET ${target} APPEND PROPERTY HETCOLL_PACKAGE_LIBS ${arg_LIBS})
endfunction()

function(hetcoll_write_package)
  get_property(libraries GLOBAL PROPERTY HETCOLL_INSTALLED_LIBRARIES)
  set(dependency_code "")
  set(component_code "")
  foreach(target ${libraries})
    get_target_property(export_name ${target} EXPORT_NAME)
    get_target_property(cmake_lines ${target} HETCOLL_PACKAGE_CMAKE)
    if(cmake_lines)
      list(REMOVE_DUPLICATES cmake_lines)
      string(APPEND dependency_code "# needed by hetcoll::${export_name}\n")
      foreach(line ${cmake_lines})
        string(APPEND dependency_code "${line}\n")
      endforeach()
    endif()
    string(APPEND component_code "set(hetcoll_${export_name}_FOUND TRUE)\n")
    hetcoll_write_pkgconfig(${target})
  endforeach()

  install(EXPORT hetcollTargets NAMESPACE hetcoll:: DESTINATION ${HETCOLL_INSTALL_CMAKEDIR})
  set(HETCOLL_PACKAGE_DEPENDENCY_CODE "${dependency_code}")
  set(HETCOLL_PACKAGE_COMPONENT_CODE "${component_code}")
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
