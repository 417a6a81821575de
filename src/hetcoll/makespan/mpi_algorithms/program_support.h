// What the MPI algorithms of this folder share: checking a call's
// arguments, naming slices, Open MPI's tree shapes (SimGrid's
// src/smpi/colls/coll_tuned_topo.cpp, from Open MPI's coll/tuned) and
// running one program after another (an algorithm that calls another
// collective, as allreduce "redbcast" calls reduce then bcast).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hetcoll/plan/comm_program.h"

namespace hetcoll::mpi_programs {

// Throws InputError (parameter named) unless ranks >= 1, 0 <= root < ranks,
// element_bytes >= 1 and count fits an MPI int.
void check_call(const char* algorithm, int ranks, int root, std::size_t count, std::size_t element_bytes);

// Throws InputError naming `algorithm` and why SimGrid's code cannot be
// modelled (or does not compute the collective) for this call.
[[noreturn]] void unsupported_call(const char* algorithm, const std::string& why);

inline Slice data_slice(std::size_t offset, std::size_t count) { return Slice{0, offset, count}; }
inline Slice scratch_slice(std::uint32_t buffer, std::size_t offset, std::size_t count) {
  return Slice{buffer, offset, count};
}

// A rank's place in one of Open MPI's trees: its parent (-1 at the root)
// and its children in the order the algorithms serve them.
struct TreeNode {
  int parent = -1;
  std::vector<int> children;
};
// ompi_coll_tuned_topo_build_tree(fanout, comm, root).
TreeNode ompi_tree(int fanout, int ranks, int root, int rank);
// ompi_coll_tuned_topo_build_chain(1, comm, root): root -> root+1 -> ...
TreeNode ompi_chain(int ranks, int root, int rank);
// ompi_coll_tuned_topo_build_in_order_bmtree(comm, root).
TreeNode ompi_in_order_binomial_tree(int ranks, int root, int rank);

// Open MPI's COLL_TUNED_COMPUTED_SEGCOUNT: elements per segment of about
// `segment_bytes` (unchanged `count` when segment_bytes is smaller than an
// element or the message fits one segment).
std::size_t ompi_segment_count(std::size_t segment_bytes, std::size_t element_bytes, std::size_t count);

// `second` run after `first` on the same ranks: its scratch buffers get new
// numbers, its waits the shifted step indices. The name is `name`.
CommProgram run_in_sequence(CommProgram first, const CommProgram& second, std::string name);

}  // namespace hetcoll::mpi_programs

namespace hetcoll::mpi_programs {

// Pieces other algorithms call on part of the buffer (elements [offset,
// offset + count)): SMPI's default reduce (reduce_linear.cpp) and the
// binomial-tree broadcast (broadcast_trees.cpp).
void append_reduce_default(CommProgram& program, int root, std::size_t offset, std::size_t count);
void append_bcast_binomial_tree(CommProgram& program, int root, std::size_t offset, std::size_t count);

}  // namespace hetcoll::mpi_programs
