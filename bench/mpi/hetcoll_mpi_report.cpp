// hetcoll_mpi_report RAW.csv OUT_DIR [NAME]: the summary of scripts/mpi-bench
// (files NAME-summary.csv and NAME-PLATFORM-COLLECTIVE.svg; NAME defaults to
// mpi-bench).
//
// Reads every run (hetcoll_mpi_bench's CSV lines plus a note column) and, per
// (platform, collective, size), compares hetcoll's time with the best
// built-in algorithm's: prints one line each, writes OUT_DIR/
// mpi-bench-summary.csv and one SVG per (platform, collective): time against
// size, hetcoll (measured and predicted) and every built-in. Runs of
// implementation "hetcoll-graph" (plans of the graph planners,
// --plan-model graph) get their own columns beside hetcoll's sender-speed
// plan and their own series; so do runs of "hetcoll-eager" (broadcasts and
// reduces planned in the eager model, --plan-model eager). For each size the
// summary then names the best of hetcoll's sender-speed (one-port) plan,
// its eager plan and its split broadcast, reduce or all-reduce ("hetcoll-split",
// --collective split-bcast: pieces scattered to spreaders; --collective
// split-reduce: pieces reduced at aggregators, predicted in the NIC fluid
// model): the one predicted fastest, as
// hetcoll would choose before running (each prediction is its own model's),
// with its time and speed-up.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/viz/line_plot_svg.h"

namespace {

struct Run {
  std::string platform, collective, implementation, algorithm, note;
  double elements = 0, bytes = 0, measured = 0, predicted = NAN;
  int ranks = 0;
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  std::string field;
  while (std::getline(stream, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

std::string base_name(const std::string& path) {
  auto slash = path.find_last_of('/');
  auto name = slash == std::string::npos ? path : path.substr(slash + 1);
  auto dot = name.rfind(".xml");
  return dot == std::string::npos ? name : name.substr(0, dot);
}

double number(const std::string& text) {
  try {
    return text.empty() ? NAN : std::stod(text);
  } catch (const std::exception&) {
    return NAN;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::cerr << "usage: hetcoll_mpi_report RAW.csv OUT_DIR [NAME]\n";
    return 2;
  }
  std::string name = argc == 4 ? argv[3] : "mpi-bench";
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "hetcoll_mpi_report: cannot read " << argv[1] << "\n";
    return 2;
  }
  std::string out_dir = argv[2];
  std::vector<Run> runs;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    auto f = split(line);
    if (f.size() < 12) continue;
    Run run;
    run.platform = base_name(f[0]);
    run.collective = f[1];
    run.implementation = f[2];
    run.algorithm = f[3];
    run.elements = number(f[4]);
    run.bytes = number(f[5]);
    run.measured = number(f[6]);
    run.predicted = number(f[7]);
    run.ranks = static_cast<int>(number(f[11]));
    run.note = f.size() > 12 ? f[12] : "";
    if (std::isfinite(run.measured)) runs.push_back(run);
  }

  // key: platform, collective, elements
  using Key = std::tuple<std::string, std::string, double>;
  std::map<Key, std::vector<const Run*>> groups;
  for (const auto& run : runs) groups[{run.platform, run.collective, run.elements}].push_back(&run);

  std::ofstream summary(out_dir + "/" + name + "-summary.csv");
  summary << "platform,ranks,collective,elements,bytes,hetcoll_algorithm,hetcoll_seconds,predicted_seconds,"
             "measured_over_predicted,hetcoll_standard_sends_seconds,best_builtin,best_builtin_seconds,speedup,"
             "graph_algorithm,graph_seconds,graph_predicted_seconds,graph_speedup,eager_algorithm,eager_seconds,"
             "eager_predicted_seconds,eager_speedup,chosen_plan,chosen_seconds,chosen_speedup,split_algorithm,"
             "split_seconds,split_predicted_seconds,split_speedup\n";
  std::printf("%-18s %-11s %9s  %-34s %11s %11s %6s  %-22s %11s %7s %11s %11s %7s %11s %11s %7s %11s %11s %7s  %s\n",
              "platform", "collective", "elements", "hetcoll plan", "time (s)", "predicted", "meas/pred",
              "best built-in", "time (s)", "speedup", "graph plan", "predicted", "speedup", "eager plan", "predicted",
              "speedup", "split plan", "predicted", "speedup", "chosen (by prediction)");
  for (const auto& [key, members] : groups) {
    const Run* hetcoll = nullptr;
    const Run* standard_sends = nullptr;
    const Run* best = nullptr;
    const Run* graph = nullptr;
    const Run* eager = nullptr;
    const Run* split = nullptr;
    for (const auto* run : members) {
      if (run->implementation == "hetcoll-graph") {
        if (!graph || run->measured < graph->measured) graph = run;
      } else if (run->implementation == "hetcoll-eager") {
        if (!eager || run->measured < eager->measured) eager = run;
      } else if (run->implementation == "hetcoll-split") {
        if (!split || run->measured < split->measured) split = run;
      } else if (run->implementation == "hetcoll") {
        bool is_standard = run->note.find("standard sends") != std::string::npos;
        auto& slot = is_standard ? standard_sends : hetcoll;
        // Among hetcoll's variants (the pipelined trees of a large
        // broadcast), the one its model predicts fastest: what hetcoll
        // would choose before running, not the best measured.
        bool better = !slot || (std::isfinite(run->predicted) && std::isfinite(slot->predicted)
                                    ? run->predicted < slot->predicted
                                    : run->measured < slot->measured);
        if (better) slot = run;
      } else if (!best || run->measured < best->measured) {
        best = run;
      }
    }
    if (!hetcoll) continue;
    double speedup = best ? best->measured / hetcoll->measured : NAN;
    double gap = hetcoll->measured / hetcoll->predicted;
    double graph_speedup = best && graph ? best->measured / graph->measured : NAN;
    double eager_speedup = best && eager ? best->measured / eager->measured : NAN;
    double split_speedup = best && split ? best->measured / split->measured : NAN;
    // hetcoll's choice among its one-port plan, its eager plan and its split
    // broadcast: the smallest prediction, as it would choose before running.
    const Run* chosen = hetcoll;
    std::string chosen_name = "one-port";
    for (const auto& [candidate, candidate_name] : {std::pair{eager, "eager"}, std::pair{split, "split"}}) {
      if (candidate && std::isfinite(candidate->predicted) &&
          (!std::isfinite(chosen->predicted) || candidate->predicted < chosen->predicted)) {
        chosen = candidate;
        chosen_name = candidate_name;
      }
    }
    double chosen_speedup = best ? best->measured / chosen->measured : NAN;
    std::printf("%-18s %-11s %9.0f  %-34s %11.4g %11.4g %6.2f  %-22s %11.4g %6.2fx %11.4g %11.4g %6.2fx %11.4g %11.4g "
                "%6.2fx %11.4g %11.4g %6.2fx  %s %.4g s %.2fx\n",
                std::get<0>(key).c_str(), std::get<1>(key).c_str(), std::get<2>(key), hetcoll->algorithm.c_str(),
                hetcoll->measured, hetcoll->predicted, gap, best ? best->algorithm.c_str() : "-",
                best ? best->measured : NAN, speedup, graph ? graph->measured : NAN, graph ? graph->predicted : NAN,
                graph_speedup, eager ? eager->measured : NAN, eager ? eager->predicted : NAN, eager_speedup,
                split ? split->measured : NAN, split ? split->predicted : NAN, split_speedup, chosen_name.c_str(),
                chosen->measured, chosen_speedup);
    summary << fmt::format("{},{},{},{},{},{},{:.9g},{:.9g},{:.4f},{},{},{},{},{},{},{},{},", std::get<0>(key),
                           hetcoll->ranks, std::get<1>(key), std::get<2>(key), hetcoll->bytes, hetcoll->algorithm,
                           hetcoll->measured, hetcoll->predicted, gap,
                           standard_sends ? fmt::format("{:.9g}", standard_sends->measured) : "",
                           best ? best->algorithm : "", best ? fmt::format("{:.9g}", best->measured) : "",
                           best ? fmt::format("{:.4f}", speedup) : "", graph ? graph->algorithm : "",
                           graph ? fmt::format("{:.9g}", graph->measured) : "",
                           graph ? fmt::format("{:.9g}", graph->predicted) : "",
                           graph && best ? fmt::format("{:.4f}", graph_speedup) : "");
    summary << fmt::format("{},{},{},{},{},{:.9g},{},", eager ? eager->algorithm : "",
                           eager ? fmt::format("{:.9g}", eager->measured) : "",
                           eager ? fmt::format("{:.9g}", eager->predicted) : "",
                           eager && best ? fmt::format("{:.4f}", eager_speedup) : "", chosen_name, chosen->measured,
                           best ? fmt::format("{:.4f}", chosen_speedup) : "");
    summary << fmt::format("{},{},{},{}\n", split ? split->algorithm : "",
                           split ? fmt::format("{:.9g}", split->measured) : "",
                           split ? fmt::format("{:.9g}", split->predicted) : "",
                           split && best ? fmt::format("{:.4f}", split_speedup) : "");
  }

  // One picture per (platform, collective).
  std::set<std::pair<std::string, std::string>> pictures;
  for (const auto& run : runs) pictures.insert({run.platform, run.collective});
  for (const auto& [platform, collective] : pictures) {
    std::map<std::string, hetcoll::PlotSeries> series;
    hetcoll::PlotSeries predicted{"hetcoll, model's prediction", {}, {}, true, true};
    hetcoll::PlotSeries graph_predicted{"hetcoll graph plan, graph model's prediction", {}, {}, true, true};
    graph_predicted.style_key = "hetcoll graph plan";  // the colour of its measured line
    hetcoll::PlotSeries eager_predicted{"hetcoll eager plan, eager model's prediction", {}, {}, true, true};
    eager_predicted.style_key = "hetcoll eager plan";
    const bool reduces = collective == "reduce";
    const std::string split_name = reduces                     ? "hetcoll split reduce"
                                   : collective == "allreduce" ? "hetcoll split all-reduce"
                                                               : "hetcoll split broadcast";
    // The split broadcast is planned in the eager model; the split reduce
    // and all-reduce in the NIC fluid model.
    hetcoll::PlotSeries split_predicted{
        split_name + (reduces || collective == "allreduce" ? ", NIC fluid model's prediction" : ", eager model's prediction"),
        {}, {},
        true, true};
    split_predicted.style_key = split_name;
    for (const auto& run : runs) {
      if (run.platform != platform || run.collective != collective) continue;
      std::string name = run.implementation == "hetcoll"         ? run.algorithm + (run.note.empty() ? "" : " (" + run.note + ")")
                         : run.implementation == "hetcoll-graph" ? std::string("hetcoll graph plan")
                         : run.implementation == "hetcoll-eager" ? std::string("hetcoll eager plan")
                         : run.implementation == "hetcoll-split" ? split_name
                                                                 : "built-in " + run.algorithm;
      if (run.implementation == "hetcoll-eager" && std::isfinite(run.predicted)) {
        eager_predicted.x.push_back(run.elements);
        eager_predicted.y.push_back(run.predicted);
      }
      if (run.implementation == "hetcoll-split" && std::isfinite(run.predicted)) {
        split_predicted.x.push_back(run.elements);
        split_predicted.y.push_back(run.predicted);
      }
      if (run.implementation == "hetcoll-graph" && std::isfinite(run.predicted)) {
        graph_predicted.x.push_back(run.elements);
        graph_predicted.y.push_back(run.predicted);
      }
      if (collective == "large-bcast" && run.implementation == "hetcoll" && run.algorithm.find("tree") != std::string::npos) {
        // The slice size and the number of trees vary with the size: one series per method.
        name = run.algorithm.rfind("auto:", 0) == 0 ? "hetcoll pipelined auto"
               : run.algorithm.find("multi-tree in rounds") != std::string::npos
                   ? "hetcoll pipelined multi-tree (rounds)"
                   : "hetcoll " + run.algorithm.substr(0, run.algorithm.find(';'));
      }
      auto& s = series[name];
      s.name = name;
      s.x.push_back(run.elements);
      s.y.push_back(run.measured);
      if (run.implementation == "hetcoll" && run.note.empty() && std::isfinite(run.predicted) &&
          (collective != "large-bcast" || run.algorithm.rfind("pipelined best single tree", 0) == 0)) {
        predicted.x.push_back(run.elements);
        predicted.y.push_back(run.predicted);
      }
    }
    hetcoll::PlotSpec spec;
    spec.title = fmt::format("{} on {} ({}): hetcoll vs the built-in algorithms", collective, platform,
                             name == "mpi-bench" ? "SimGrid SMPI"
                             : name == "netbed"  ? "Open MPI over TCP, scripts/netbed"
                                                 : "Open MPI, emulated speeds");
    spec.x_label = collective == "large-bcast" ? "elements (int) broadcast" : "elements (int) per rank";
    spec.y_label = "time (s)";
    spec.log_x = true;
    spec.log_y = true;
    spec.width = 1000;
    spec.height = 560;
    // hetcoll first, then the built-ins.
    for (auto& [name, s] : series) {
      if (name.rfind("built-in", 0) != 0) spec.series.push_back(s);
    }
    if (!predicted.x.empty()) spec.series.push_back(predicted);
    if (!graph_predicted.x.empty()) spec.series.push_back(graph_predicted);
    if (!eager_predicted.x.empty()) spec.series.push_back(eager_predicted);
    if (!split_predicted.x.empty()) spec.series.push_back(split_predicted);
    // Built-ins that are the fastest built-in at some size (or the library's
    // default) are solid lines; the others dashed, so the contenders stand out.
    std::set<std::string> contenders = {"built-in default"};
    std::map<double, std::pair<double, std::string>> fastest;  // elements -> (time, series)
    for (auto& [name, s] : series) {
      if (name.rfind("built-in", 0) != 0) continue;
      for (size_t i = 0; i < s.x.size(); ++i) {
        auto found = fastest.find(s.x[i]);
        if (found == fastest.end() || s.y[i] < found->second.first) fastest[s.x[i]] = {s.y[i], name};
      }
    }
    for (const auto& [elements, entry] : fastest) contenders.insert(entry.second);
    for (auto& [name, s] : series) {
      if (name.rfind("built-in", 0) == 0) {
        s.markers = false;
        s.dashed = contenders.count(name) == 0;
        spec.series.push_back(s);
      }
    }
    // Room for the legend (22 px a line, below the title).
    spec.height = std::max(spec.height, 80 + 22 * static_cast<int>(spec.series.size()));
    std::string path = fmt::format("{}/{}-{}-{}.svg", out_dir, name, platform, collective);
    hetcoll::write_line_plot_svg(path, spec);
  }
  std::printf("wrote %s/%s.csv (every run), %s-summary.csv and %s-*.svg\n", out_dir.c_str(), name.c_str(),
              name.c_str(), name.c_str());
  return 0;
}
