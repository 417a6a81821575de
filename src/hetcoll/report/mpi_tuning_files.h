// The tuning decisions of registry/mpi_tuning.h as the files stock MPI
// libraries read, and readers that apply those files as the libraries do
// (for tests and for `hetcoll tune --check`).
//
// Open MPI (4.1's coll_tuned, ompi/mca/coll/tuned/coll_tuned_dynamic_file.c,
// read with --mca coll_tuned_use_dynamic_rules 1 --mca
// coll_tuned_dynamic_rules_filename F): whitespace-separated integers,
// '#' starts a comment to the end of the line: the number of collectives;
// per collective its id (COLLTYPE_T), the number of communicator sizes;
// per size the size and the number of message sizes; per message size
// "bytes algorithm fan-in/out segment-size". Sizes ascend and each list of
// message sizes starts at 0. Open MPI takes the largest communicator size
// at or below the communicator's (else the first) and the largest message
// size at or below count · datatype size.
// MPICH (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE, src/mpi/coll/src/csel.c
// with maint/tuning/coll/mpir/generic.json's structure): nested objects
// tried in order, keys "collective=bcast", "comm_type=intra",
// "comm_size<N", "avg_msg_size<N", "is_op_built_in=yes", "count<pow2",
// "X=any", leaves "algorithm=MPIR_...": {}. MPICH asserts that every
// collective it calls has an entry: the tuned collectives are merged into
// a base file (MPICH's own generic.json) when one is given.
// Complexity: linear in the cells.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "hetcoll/registry/mpi_tuning.h"

namespace hetcoll {

// For people: per collective and communicator size, the algorithm written
// for each run of message sizes, its prediction and (Open MPI) the fixed
// decision's algorithm and the predicted speed-up over it.
std::string mpi_tuning_text(const MpiTuning& tuning);

// The same as JSON: {"library", "platform", "element_bytes", "root",
//  "cells": [{"collective", "ranks", "message_bytes", "count", "program",
//  "name", "openmpi_id", "segment_bytes", "fanout", "seconds",
//  "default_id", "default_program", "default_seconds",
//  "smpi_selector_program", "smpi_selector_seconds",
//  "predictions": {program: seconds}}]}; NaN predictions are null.
std::string mpi_tuning_json(const MpiTuning& tuning);

// Open MPI's rules file, with '#' comments naming each rule's algorithm
// and prediction and the ids that are not modelled.
std::string openmpi_rules_file(const MpiTuning& tuning);

// MPICH's JSON selection file. `base_json` (optional): the text of a full
// selection file whose bcast, reduce and allreduce entries are replaced
// (throws InputError, parameter "base", when it is not a JSON object).
std::string mpich_selection_json(const MpiTuning& tuning, const std::optional<std::string>& base_json = {});

// Open MPI's reading of a rules file: the (algorithm, fan-in/out,
// segment size) it runs for a call, or nullopt when the file has no rule
// for the collective (then Open MPI's fixed decision runs; so does an
// algorithm 0). Throws InputError (parameter "rules", with the line) where
// Open MPI would reject the file.
struct OpenMpiRule {
  int algorithm = 0;
  int fanout = 0;
  long segment_bytes = 0;
};
std::optional<OpenMpiRule> openmpi_rules_lookup(std::string_view rules_text, int collective_id, int ranks,
                                                std::size_t message_bytes);

// MPICH's selection for an intra-communicator call of a commutative
// built-in operation: the algorithm's function name ("MPIR_Bcast_intra_
// binomial"). Throws InputError (parameter "json") on a key this reader
// does not know or when no leaf matches (MPICH would assert).
std::string mpich_json_lookup(std::string_view json_text, std::string_view collective, int ranks,
                              std::size_t message_bytes, std::size_t count);

}  // namespace hetcoll
