# Environment for running Open MPI jobs on this machine: as root (CI and the
# development containers run as root), with more ranks than cores, and
# without the single-copy (CMA) mechanism that containers usually forbid.
export OMPI_ALLOW_RUN_AS_ROOT=1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
