// A communication program as bytes, and back: how the MPI runtime's rank 0
// hands the program it chose (and planned once) to every other rank, which
// then need not plan it again.
//
// Format: "HCP1", then little-endian fixed-width fields: the name, the rank
// count, the scratch buffers' sizes and, per rank, its steps (kind, peer,
// synchronous, both slices, pace seconds, wait list). Only processes of one
// build exchange it (no versioning beyond the tag).
//
// Complexity: linear in the steps and wait lists.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "hetcoll/plan/comm_program.h"

namespace hetcoll {

std::vector<char> encode_program(const CommProgram& program);

// The program encoded in `bytes`, checked by check_program for
// `data_elements` elements in buffer 0. InputError naming "program" when
// the bytes are truncated, carry trailing data, are not an encoded program
// or decode to a malformed one.
CommProgram decode_program(std::string_view bytes, std::size_t data_elements);

}  // namespace hetcoll
