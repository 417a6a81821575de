# Finds QSopt_ex, the exact rational LP solver (Debian: libqsopt-ex-dev), which
# ships neither a pkg-config file nor a CMake package. Gives QSopt_ex_FOUND and
# the imported target QSopt_ex::QSopt_ex. hetcoll's build uses it, and the
# installed hetcoll package runs it again for its consumers (it is installed
# next to hetcollConfig.cmake).
find_path(QSopt_ex_INCLUDE_DIR qsopt_ex/QSopt_ex.h)
find_library(QSopt_ex_LIBRARY qsopt_ex)
mark_as_advanced(QSopt_ex_INCLUDE_DIR QSopt_ex_LIBRARY)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(QSopt_ex REQUIRED_VARS QSopt_ex_LIBRARY QSopt_ex_INCLUDE_DIR)
if(QSopt_ex_FOUND AND NOT TARGET QSopt_ex::QSopt_ex)
  add_library(QSopt_ex::QSopt_ex UNKNOWN IMPORTED)
  set_target_properties(QSopt_ex::QSopt_ex PROPERTIES IMPORTED_LOCATION "${QSopt_ex_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${QSopt_ex_INCLUDE_DIR}")
endif()
