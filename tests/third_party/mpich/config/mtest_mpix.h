/* Stand-in for the mtest_mpix.h that MPICH's autogen generates (its test
 * suite's autogen.sh makes it empty when absent): no MPIX_ extensions. */
