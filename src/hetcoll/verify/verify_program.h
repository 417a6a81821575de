// Checking that a communication program (plan/comm_program.h) computes its
// collective, by running it in memory on symbolic data.
//
// Every element carries what it holds: the index of the element it stands
// for and the set of ranks whose contribution it combines (a bitset), or
// "undefined" (scratch never written). At the start, buffer 0 of rank r
// holds {i, {r}} at element i; scratch buffers are undefined. The ranks run
// with MPI's semantics, scheduled until none can move:
//  * a send's request completes once the matching receive is posted (the
//    standard's rule, stricter than SMPI's eager sends: a program that only
//    works because small sends are buffered is reported as a deadlock);
//  * a receive's request completes once the matching send is posted; its
//    data may be read only after its wait (MPI gives no earlier guarantee).
//    Both slices stay untouchable from their post to their wait, so the
//    data moves when the second end is posted;
//  * combine(from, into): both elements must stand for the same index and
//    share no contribution (a contribution counted twice is an error);
//    undefined data makes the result undefined (padding an algorithm sends
//    along but never uses is allowed, only the final buffer is judged);
//    copy(from, into) copies. A program with `rank_order` set (a reduce
//    for non-commutative operations) is held to more: both sides of a
//    combine hold the contributions of consecutive ranks, and `from`'s end
//    just before `into`'s start (from is the left operand: the result is
//    x_a op ... op x_b in rank order).
// Violations: a malformed program (check_program); reading, sending or
// overwriting a slice a pending receive will write (data read before it
// arrived); overwriting a slice a pending send still reads; combining
// different indices or a contribution twice; a deadlock; and at the end —
// broadcast: an element of some rank's buffer 0 that is not the root's
// initial element; multicast: the same on the targets only (other ranks'
// buffer 0 must be left as it was); reduce (at the root) and all-reduce (at
// every rank): an element that is not exactly every rank's contribution to
// that index; allgather (every rank): an element of block r (buffer 0 holds
// one block per rank, each rank only its own at the start) that is not rank
// r's element.
// The report holds the first violation, naming rank, step and element.
//
// Complexity: O(S + E · ⌈R/64⌉) time for S steps moving E elements in
// total, O(B · ⌈R/64⌉) space for B buffer elements over all ranks.
#pragma once

#include <cstddef>
#include <vector>

#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/plan.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

// `operation`: broadcast, multicast, reduce, allreduce or allgather
// (anything else: InputError); `root` ignored for allreduce and allgather;
// `count`: the elements of buffer 0 (allgather: of one rank's block, buffer
// 0 holding ranks x count); `targets`: a multicast's targets (ranks other than the root).
VerifyReport verify_program(const CommProgram& program, Operation operation, int root, std::size_t count,
                            const std::vector<int>& targets = {});

}  // namespace hetcoll
