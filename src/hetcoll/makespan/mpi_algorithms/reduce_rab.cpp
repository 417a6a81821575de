// Rabenseifner's reduce and all-reduce "rab", as SimGrid SMPI 3.32 runs
// them (simgrid/simgrid, src/smpi/colls/reduce/reduce-rab.cpp,
// MPI_I_anyReduce; Rabenseifner, "Optimization of collective reduction
// operations", 2004): with r = p - 2^n (2^n <= p), the first 2r ranks pair
// up and the even one of each pair keeps the pair's sum (halves exchanged
// with MPI_Sendrecv, the odd rank returns its reduced half); the 2^n
// remaining ranks run a reduce-scatter by recursive halving (n
// MPI_Sendrecv steps, the lower half to the even partner); then, for
// reduce, a binomial gather of the pieces to the root (blocking sends and
// receives; a root among the odd first 2r ranks gets rank 0's piece
// first), for all-reduce an allgather by recursive doubling and the result
// sent back to the odd ranks. SimGrid's REDUCE_NEW_ALWAYS makes every
// count >= 1 take this path; for count 0 or one rank it calls the
// selected reduce (allreduce) again, i.e. itself for ever: refused.
// The programs assume a predefined datatype other than MPI_BYTE and a
// predefined arithmetic operation (otherwise SimGrid throws or recurses).
// Deviations: SimGrid's three-buffer MPI_I_do_op(a, b, result) is a copy
// of a into result then a combine of b; the root (every rank for
// all-reduce) first copies buffer 0 to scratch, as SimGrid keeps the
// separate send buffer. Commutative operations. Complexity: O(p log p) steps.
#include <fmt/format.h>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

std::string rab_limit(int ranks, std::size_t count, std::size_t) {
  if (count == 0 || ranks == 1) {
    return "for count 0 or one rank SimGrid's rab calls the selected collective, itself, for ever";
  }
  return {};
}

namespace {

CommProgram any_reduce(int ranks, int root, std::size_t count, bool is_all, std::string name) {
  CommProgram program(ranks, std::move(name));
  const int size = ranks;
  const std::uint32_t send_copy = program.add_buffer(count);
  std::uint32_t scr1 = program.add_buffer(count), scr2 = program.add_buffer(count), scr3 = program.add_buffer(count);
  const std::uint32_t first_scr1 = scr1, first_scr3 = scr3;
  int n = 0, x_size = 1;
  while (2 * x_size <= size) {
    ++n;
    x_size *= 2;
  }
  const int r = size - x_size;
  const std::size_t half = count / 2;
  auto on = [](std::uint32_t buffer, std::size_t start, std::size_t length) {
    return scratch_slice(buffer, start, length);
  };
  for (int myrank = 0; myrank < size; ++myrank) {
    scr1 = first_scr1;
    scr3 = first_scr3;
    const int my_root = is_all ? myrank : root;
    const bool keeps_result = my_root == myrank;
    // sendbuf: buffer 0, or its copy where buffer 0 is also the result.
    const std::uint32_t sendbuf = keeps_result ? send_copy : 0;
    if (keeps_result) program.add(myrank, ProgramStep::copy_of(data_slice(0, count), on(send_copy, 0, count)));
    auto do_op = [&](Slice a, Slice b, Slice result) {
      program.add(myrank, ProgramStep::copy_of(a, result));
      program.add(myrank, ProgramStep::combine_of(b, result));
    };
    bool computed = false;
    // Step 2.
    if (myrank < 2 * r) {
      if (myrank % 2 == 0) {
        program.send_receive(myrank, myrank + 1, on(sendbuf, half, count - half), myrank + 1, on(scr2, 0, half));
        do_op(on(sendbuf, 0, half), on(scr2, 0, half), on(scr1, 0, half));
        program.blocking_receive(myrank, myrank + 1, on(scr1, half, count - half));
        computed = true;
      } else {
        program.send_receive(myrank, myrank - 1, on(sendbuf, 0, half), myrank - 1, on(scr2, half, count - half));
        do_op(on(scr2, half, count - half), on(sendbuf, half, count - half), on(scr1, half, count - half));
        program.blocking_send(myrank, myrank - 1, on(scr1, half, count - half));
      }
    }
    // Steps 3 to 5: recursive halving.
    int mynewrank = (myrank >= 2 * r || myrank % 2 == 0) ? (myrank < 2 * r ? myrank / 2 : myrank - r) : -1;
    std::vector<std::size_t> start_even(static_cast<std::size_t>(n)), count_even(static_cast<std::size_t>(n));
    std::vector<std::size_t> start_odd(static_cast<std::size_t>(n)), count_odd(static_cast<std::size_t>(n));
    std::size_t x_start = 0, x_count = count;
    auto old_rank = [&](int newrank) { return newrank < r ? newrank * 2 : newrank + r; };
    if (mynewrank >= 0) {
      for (int idx = 0, x_base = 1; idx < n; ++idx, x_base *= 2) {
        const auto i = static_cast<std::size_t>(idx);
        start_even[i] = x_start;
        count_even[i] = x_count / 2;
        start_odd[i] = x_start + count_even[i];
        count_odd[i] = x_count - count_even[i];
        const std::uint32_t source = computed ? scr1 : sendbuf;
        const std::uint32_t result = keeps_result && idx == n - 1 ? 0 : scr3;
        if ((mynewrank / x_base) % 2 == 0) {
          x_start = start_even[i];
          x_count = count_even[i];
          const int partner = old_rank(mynewrank + x_base);
          program.send_receive(myrank, partner, on(source, start_odd[i], count_odd[i]), partner,
                               on(scr2, x_start, x_count));
          do_op(on(source, x_start, x_count), on(scr2, x_start, x_count), on(result, x_start, x_count));
        } else {
          x_start = start_odd[i];
          x_count = count_odd[i];
          const int partner = old_rank(mynewrank - x_base);
          program.send_receive(myrank, partner, on(source, start_even[i], count_even[i]), partner,
                               on(scr2, x_start, x_count));
          do_op(on(scr2, x_start, x_count), on(source, x_start, x_count), on(result, x_start, x_count));
        }
        std::swap(scr1, scr3);
        computed = true;
      }
    }
    if (is_all) {
      if (mynewrank >= 0) {
        for (int idx = n - 1, x_base = x_size / 2; idx >= 0; --idx, x_base /= 2) {
          const auto i = static_cast<std::size_t>(idx);
          if ((mynewrank / x_base) % 2 == 0) {
            const int partner = old_rank(mynewrank + x_base);
            program.send_receive(myrank, partner, data_slice(start_even[i], count_even[i]), partner,
                                 data_slice(start_odd[i], count_odd[i]));
          } else {
            const int partner = old_rank(mynewrank - x_base);
            program.send_receive(myrank, partner, data_slice(start_odd[i], count_odd[i]), partner,
                                 data_slice(start_even[i], count_even[i]));
          }
        }
      }
      if (myrank < 2 * r) {
        if (myrank % 2 == 0) {
          program.blocking_send(myrank, myrank + 1, data_slice(0, count));
        } else {
          program.blocking_receive(myrank, myrank - 1, data_slice(0, count));
        }
      }
      continue;
    }
    // Reduce: step 6.0, a root among the odd first 2r ranks takes rank 0's place.
    int newroot;
    if (root < 2 * r && root % 2 == 1) {
      if (myrank == 0) {
        program.blocking_send(myrank, root, on(scr1, 0, x_count));
        mynewrank = -1;
      }
      if (myrank == root) {
        mynewrank = 0;
        x_start = 0;
        x_count = count;
        for (int idx = 0; idx < n; ++idx) {
          const auto i = static_cast<std::size_t>(idx);
          start_even[i] = x_start;
          count_even[i] = x_count / 2;
          start_odd[i] = x_start + count_even[i];
          count_odd[i] = x_count - count_even[i];
          x_start = start_even[i];
          x_count = count_even[i];
        }
        program.blocking_receive(myrank, 0, data_slice(0, x_count));
      }
      newroot = 0;
    } else {
      newroot = root < 2 * r ? root / 2 : root - r;
    }
    // Steps 6.1 to 6.n: the binomial gather.
    if (mynewrank >= 0) {
      auto gather_rank = [&](int newrank) { return newrank == newroot ? root : old_rank(newrank); };
      const std::uint32_t landing = myrank == root ? 0 : scr1;
      for (int idx = n - 1, x_base = x_size / 2; idx >= 0; --idx, x_base /= 2) {
        const auto i = static_cast<std::size_t>(idx);
        const bool even = (mynewrank / x_base) % 2 == 0;
        const int partner = even ? mynewrank + x_base : mynewrank - x_base;
        if ((mynewrank & x_base) != (newroot & x_base)) {
          x_start = even ? start_even[i] : start_odd[i];
          x_count = even ? count_even[i] : count_odd[i];
          program.blocking_send(myrank, gather_rank(partner), on(scr1, x_start, x_count));
        } else {
          x_start = even ? start_odd[i] : start_even[i];
          x_count = even ? count_odd[i] : count_even[i];
          program.blocking_receive(myrank, gather_rank(partner), on(landing, x_start, x_count));
        }
      }
    }
  }
  return program;
}

}  // namespace

CommProgram reduce_rab_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("rab", ranks, root, count, element_bytes);
  if (auto why = rab_limit(ranks, count, element_bytes); !why.empty()) unsupported_call("rab", why);
  return any_reduce(ranks, root, count, false, "Rabenseifner reduce (SMPI rab)");
}

CommProgram allreduce_rab_program(int ranks, int, std::size_t count, std::size_t element_bytes) {
  check_call("rab", ranks, 0, count, element_bytes);
  if (auto why = rab_limit(ranks, count, element_bytes); !why.empty()) unsupported_call("rab", why);
  return any_reduce(ranks, 0, count, true, "Rabenseifner all-reduce (SMPI rab)");
}

}  // namespace hetcoll::mpi_programs
