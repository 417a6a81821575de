// Gantt chart of a makespan plan as SVG: one row per processor (id and
// transmission time t), time running left to right.
//
// Every message appears twice, as a solid bar on the sender's row (labelled
// with the receiver when the label fits) and as a light hatched bar on the
// receiver's row (labelled with the sender), since in the sender-speed model
// a message occupies both ends for t(sender). Colours tell the payload apart:
// blue for the broadcast value, orange for partial reductions, so the two
// phases of an all-reduce differ. When few messages are drawn, a thin arrow
// joins each send to its receive, placed where it crosses no bar of the rows
// in between; when those rows are busy all through the message, two short
// ticks at the sender's and the receiver's bars replace it. The title gives
// the operation, the algorithm, the makespan, the lower bound and the
// guarantee; dashed lines mark the makespan and the lower bound on the time
// axis.
//
// Large plans stay small and readable. Above `max_rows` processors the chart
// becomes a summary: the root keeps its row, the others are grouped by
// transmission time (one row per class, at most 24 groups), and each group's
// row shows over time the share of its processors sending (solid, upper
// half) and receiving (hatched, lower half). With `summary` off, only the
// first `max_rows` processors get a row instead. Platform-graph charts group
// by site instead of time: above `max_rows` rows, the root's row and one row
// per site (neighbouring sites share one beyond 24), the same shares drawn;
// below, one row per participant, then the one-port links they cross. At
// most `max_transfers` messages are drawn as bars; the picture says what was
// left out. A 100000-processor plan gives a file of a few hundred kB.
#pragma once

#include <cstddef>
#include <string>

#include "hetcoll/model/cluster.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct GanttOptions {
  std::string title;                 // replaces the generated first title line when not empty
  int width = 1100;                  // picture width in pixels
  int max_rows = 200;                // above this many rows: the per-class (per-site) summary, or the first rows
  bool summary = true;               // false: the first max_rows processors instead of the summary
  std::size_t max_transfers = 4000;  // messages drawn; the others are counted in a note
  std::size_t max_arrows = 32;       // sender-to-receiver arrows only when at most this many messages are drawn
};

// The SVG text. Never throws for a plan that does not fit the cluster:
// transfers naming unknown processors are skipped and counted in a note.
std::string gantt_svg(const MakespanPlan& plan, const Cluster& cluster, const GanttOptions& options = {});

// A plan on a platform graph: a row per participant (labelled with its site
// when the platform has several), then a grey row for each shared one-port
// router or link that several messages cross (the busiest 12), showing when
// it carries what. Bars are coloured by the slowest link class on the
// message's route (LAN / MAN / WAN, found by makespan/graph/sites.h); the
// tooltip gives the route.
std::string gantt_svg(const MakespanPlan& plan, const GraphNetwork& network, const GanttOptions& options = {});

// Writes gantt_svg() to `path` (throws std::runtime_error on I/O failure).
void write_gantt_svg(const std::string& path, const MakespanPlan& plan, const Cluster& cluster,
                     const GanttOptions& options = {});

}  // namespace hetcoll
