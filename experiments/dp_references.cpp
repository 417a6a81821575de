// Experiment `dp-references` — Liu, Kuo, Wang 2009 sec. 6.3, Tables 2-4: table
// references of the three two-class DPs (dp_two_class.h) for c_s = 2 and
// f, s <= 150 in steps of 10, next to the seed's numbers; then the whole
// T(f, s) table for f, s <= 1000 computed by our capacity DP, timed, for
// several ratios c_s.
//
// A reference = one buddy pair (two table entries) compared, or one entry
// compared with the best value (dp_two_class.h). Counts are for computing
// the one cell T(f, s) once the cells it depends on are known, as the
// seed's tables give one count per cell.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "experiments/experiments_list.h"
#include "hetcoll/makespan/sender_speed/reduce/dp_two_class.h"
#include "hetcoll/viz/line_plot_svg.h"
#include "hetcoll/core/elapsed.h"

namespace hetcoll {

namespace {

// Liu, Kuo, Wang 2009 Tables 2-4 (c_s = 2), transcribed from the OCR text.
constexpr int kSeedTable2[16][16] = {  // [s / 10][f / 10]
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650, 700, 750},
    {0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500},
    {0, 150, 300, 450, 600, 750, 900, 1050, 1200, 1350, 1500, 1650, 1800, 1950, 2100, 2250},
    {0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2400, 2600, 2800, 3000},
    {0, 250, 500, 750, 1000, 1250, 1500, 1750, 2000, 2250, 2500, 2750, 3000, 3250, 3500, 3750},
    {0, 300, 600, 900, 1200, 1500, 1800, 2100, 2400, 2700, 3000, 3300, 3600, 3900, 4200, 4500},
    {0, 350, 700, 1050, 1400, 1750, 2100, 2450, 2800, 3150, 3500, 3850, 4200, 4550, 4900, 5250},
    {0, 400, 800, 1200, 1600, 2000, 2400, 2800, 3200, 3600, 4000, 4400, 4800, 5200, 5600, 6000},
    {0, 450, 900, 1350, 1800, 2250, 2700, 3150, 3600, 4050, 4500, 4950, 5400, 5850, 6300, 6750},
    {0, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000, 5500, 6000, 6500, 7000, 7500},
    {0, 550, 1100, 1650, 2200, 2750, 3300, 3850, 4400, 4950, 5500, 6050, 6600, 7150, 7700, 8250},
    {0, 600, 1200, 1800, 2400, 3000, 3600, 4200, 4800, 5400, 6000, 6600, 7200, 7800, 8400, 9000},
    {0, 650, 1300, 1950, 2600, 3250, 3900, 4550, 5200, 5850, 6500, 7150, 7800, 8450, 9100, 9750},
    {0, 700, 1400, 2100, 2800, 3500, 4200, 4900, 5600, 6300, 7000, 7700, 8400, 9100, 9800, 10500},
    {0, 750, 1500, 2250, 3000, 3750, 4500, 5250, 6000, 6750, 7500, 8250, 9000, 9750, 10500, 11250}};
constexpr int kSeedTable3[16][16] = {  // [s / 10][f / 10]
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 10, 16, 36, 46, 52, 59, 89, 134, 179, 224, 221, 226, 233, 238, 243},
    {0, 15, 19, 25, 32, 62, 74, 116, 85, 87, 90, 102, 110, 132, 181, 236},
    {0, 14, 31, 34, 50, 46, 45, 49, 58, 68, 83, 89, 120, 140, 173, 219},
    {0, 18, 28, 28, 32, 44, 51, 60, 67, 99, 116, 137, 146, 195, 232, 176},
    {0, 15, 49, 58, 57, 63, 62, 72, 104, 131, 156, 179, 142, 129, 124, 129},
    {0, 26, 23, 28, 58, 99, 65, 75, 96, 89, 87, 91, 86, 91, 98, 102},
    {0, 16, 37, 37, 41, 45, 49, 54, 60, 67, 71, 77, 83, 92, 97, 107},
    {0, 15, 39, 54, 50, 57, 54, 59, 68, 75, 81, 85, 99, 101, 111, 102},
    {0, 18, 26, 62, 68, 83, 75, 71, 81, 85, 97, 103, 105, 103, 107, 157},
    {0, 16, 34, 35, 81, 105, 105, 106, 103, 113, 116, 126, 123, 95, 148, 179},
    {0, 16, 38, 31, 39, 57, 99, 171, 174, 164, 174, 158, 125, 96, 149, 180},
    {0, 29, 53, 40, 42, 48, 54, 79, 114, 151, 185, 168, 130, 101, 154, 210},
    {0, 28, 30, 68, 59, 57, 58, 61, 66, 75, 80, 85, 90, 95, 100, 105},
    {0, 19, 28, 62, 74, 70, 76, 70, 75, 75, 80, 85, 95, 100, 105, 105},
    {0, 17, 35, 45, 93, 79, 83, 90, 89, 97, 97, 99, 98, 103, 108, 117}};
constexpr int kSeedTable4[16][16] = {  // [s / 10][f / 10]
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 9, 8, 25, 38, 39, 41, 59, 115, 160, 205, 202, 207, 213, 218, 223},
    {0, 14, 18, 19, 20, 41, 59, 83, 81, 81, 77, 85, 89, 104, 154, 199},
    {0, 15, 31, 42, 44, 36, 33, 30, 34, 33, 39, 64, 109, 142, 193, 257},
    {0, 21, 27, 31, 30, 37, 43, 48, 47, 53, 85, 119, 145, 182, 201, 197},
    {0, 13, 39, 62, 58, 55, 65, 68, 71, 93, 123, 134, 126, 122, 121, 125},
    {0, 19, 26, 44, 59, 96, 87, 80, 79, 70, 64, 60, 57, 58, 62, 61},
    {0, 17, 39, 37, 50, 59, 67, 66, 62, 59, 55, 55, 58, 59, 61, 70},
    {0, 14, 36, 59, 54, 62, 68, 72, 74, 71, 75, 83, 89, 84, 94, 95},
    {0, 21, 29, 59, 80, 88, 90, 83, 84, 92, 93, 97, 94, 108, 117, 126},
    {0, 17, 33, 48, 75, 103, 123, 110, 116, 118, 110, 110, 136, 145, 146, 141},
    {0, 15, 47, 35, 59, 74, 102, 169, 159, 153, 169, 157, 170, 178, 166, 166},
    {0, 20, 45, 56, 47, 73, 88, 100, 119, 141, 192, 190, 176, 170, 174, 184},
    {0, 22, 34, 66, 56, 60, 77, 87, 97, 111, 121, 145, 151, 153, 142, 134},
    {0, 18, 28, 60, 76, 69, 74, 86, 97, 101, 111, 122, 134, 139, 132, 120},
    {0, 19, 33, 50, 96, 94, 91, 89, 85, 105, 112, 119, 122, 125, 122, 120}};

}  // namespace

ExperimentResult run_dp_references(const ExperimentOptions& options) {
  const int table_max = options.quick ? 60 : 150;
  const int big_max = options.quick ? 300 : 1000;
  const double slow = 2.0;
  std::string summary;

  auto started = std::chrono::steady_clock::now();
  TwoClassTable naive = two_class_table(1.0, slow, table_max, table_max, TwoClassDp::naive);
  const double naive_seconds = seconds_since(started);
  started = std::chrono::steady_clock::now();
  TwoClassTable lemma4 = two_class_table(1.0, slow, table_max, table_max, TwoClassDp::lemma4);
  const double lemma4_seconds = seconds_since(started);
  started = std::chrono::steady_clock::now();
  TwoClassTable lemma5 = two_class_table(1.0, slow, table_max, table_max, TwoClassDp::lemma5);
  const double lemma5_seconds = seconds_since(started);
  TwoClassTable capacity = TwoClassCapacity(1.0, slow, table_max, table_max).table();
  bool identical = naive.values == lemma4.values && naive.values == lemma5.values;
  for (size_t i = 0; i < naive.values.size(); ++i) {
    if (std::fabs(naive.values[i] - capacity.values[i]) > 1e-9) identical = false;
  }
  options.progress(fmt::format("c_s = {}: T(f, s) for f, s <= {}: naive {:.3f} s, lemma4 {:.3f} s, lemma5 {:.3f} s; tables {}",
                               slow, table_max, naive_seconds, lemma4_seconds, lemma5_seconds,
                               identical ? "identical" : "DIFFER"));

  CsvTable references;
  references.columns = {"f", "s", "T", "naive", "lemma4", "lemma5", "seed_table2", "seed_table3", "seed_table4",
                        "seed_text_formula_ceil_s(f-1)/2", "pairs_ceil_f(s+1)/2"};
  PlotSpec plot;
  plot.title = fmt::format("Two-class DP references per cell, s = {}, c_s = 2 (Liu, Kuo, Wang 2009 Tables 2-4)", table_max);
  plot.x_label = "f (fast senders)";
  plot.y_label = "table references for T(f, s)";
  plot.log_y = true;
  PlotSeries ours_naive{"naive (ours)", {}, {}}, ours_lemma4{"Lemma 4 (ours)", {}, {}},
      ours_lemma5{"Lemmas 4+5 (ours)", {}, {}};
  PlotSeries seed2{"Table 2 (paper)", {}, {}, true}, seed3{"Table 3 (paper)", {}, {}, true},
      seed4{"Table 4 (paper)", {}, {}, true};
  double sum_ratio_naive = 0, sum_ratio_lemma4 = 0, sum_ratio_lemma5 = 0;
  int ratio_cells = 0;
  for (int f = 0; f <= table_max; f += 10) {
    for (int s = 0; s <= table_max; s += 10) {
      const bool in_seed = f <= 150 && s <= 150;
      auto seed = [&](const int (&t)[16][16]) { return in_seed ? std::to_string(t[s / 10][f / 10]) : std::string(); };
      const std::uint64_t pairs = (static_cast<std::uint64_t>(f) * static_cast<std::uint64_t>(s + 1) + 1) / 2;
      references.rows.push_back({std::to_string(f), std::to_string(s), fmt::format("{}", naive.at(f, s)),
                                 std::to_string(naive.references_at(f, s)), std::to_string(lemma4.references_at(f, s)),
                                 std::to_string(lemma5.references_at(f, s)), seed(kSeedTable2), seed(kSeedTable3),
                                 seed(kSeedTable4),
                                 f >= 1 && s >= 1 ? std::to_string((static_cast<std::int64_t>(s) * (f - 1) + 1) / 2) : "0",
                                 f >= 1 && s >= 1 ? std::to_string(pairs) : "0"});
      if (f > 0 && s > 0 && in_seed) {
        sum_ratio_naive += static_cast<double>(naive.references_at(f, s)) / kSeedTable2[s / 10][f / 10];
        sum_ratio_lemma4 += static_cast<double>(lemma4.references_at(f, s)) / kSeedTable3[s / 10][f / 10];
        sum_ratio_lemma5 += static_cast<double>(lemma5.references_at(f, s)) / kSeedTable4[s / 10][f / 10];
        ++ratio_cells;
      }
      if (s == table_max && f > 0) {
        ours_naive.x.push_back(f);
        ours_naive.y.push_back(static_cast<double>(naive.references_at(f, s)));
        ours_lemma4.x.push_back(f);
        ours_lemma4.y.push_back(static_cast<double>(lemma4.references_at(f, s)));
        ours_lemma5.x.push_back(f);
        ours_lemma5.y.push_back(static_cast<double>(lemma5.references_at(f, s)));
        if (in_seed) {
          seed2.x.push_back(f);
          seed2.y.push_back(kSeedTable2[s / 10][f / 10]);
          seed3.x.push_back(f);
          seed3.y.push_back(kSeedTable3[s / 10][f / 10]);
          seed4.x.push_back(f);
          seed4.y.push_back(kSeedTable4[s / 10][f / 10]);
        }
      }
    }
  }
  plot.series = {ours_naive, seed2, ours_lemma4, seed3, ours_lemma5, seed4};
  summary += fmt::format("c_s = 2, f = s = {}: references naive {}, lemma4 {}, lemma5 {} (paper: 11250, 117, 120)\n",
                         table_max, naive.references_at(table_max, table_max), lemma4.references_at(table_max, table_max),
                         lemma5.references_at(table_max, table_max));
  summary += fmt::format("whole {}x{} table: naive {} refs {:.3f} s, lemma4 {} refs {:.3f} s, lemma5 {} refs {:.3f} s; "
                         "the three DPs and the capacity DP give {} tables\n",
                         table_max + 1, table_max + 1, naive.total_references, naive_seconds, lemma4.total_references,
                         lemma4_seconds, lemma5.total_references, lemma5_seconds, identical ? "identical" : "DIFFERENT");
  if (ratio_cells > 0) {
    summary += fmt::format("mean ratio ours / paper over the cells f, s in 10..{} (step 10): naive {:.3f}, lemma4 {:.2f}, lemma5 {:.2f}\n", std::min(table_max, 150),
                           sum_ratio_naive / ratio_cells, sum_ratio_lemma4 / ratio_cells, sum_ratio_lemma5 / ratio_cells);
  }

  CsvTable timing;
  timing.columns = {"c_s", "f_max", "s_max", "method", "seconds", "references", "T(f_max, s_max)"};
  timing.rows.push_back({"2", std::to_string(table_max), std::to_string(table_max), "naive", fmt::format("{:.6f}", naive_seconds),
                         std::to_string(naive.total_references), fmt::format("{}", naive.at(table_max, table_max))});
  timing.rows.push_back({"2", std::to_string(table_max), std::to_string(table_max), "lemma4", fmt::format("{:.6f}", lemma4_seconds),
                         std::to_string(lemma4.total_references), fmt::format("{}", lemma4.at(table_max, table_max))});
  timing.rows.push_back({"2", std::to_string(table_max), std::to_string(table_max), "lemma5", fmt::format("{:.6f}", lemma5_seconds),
                         std::to_string(lemma5.total_references), fmt::format("{}", lemma5.at(table_max, table_max))});
  for (double ratio : {1.25, 1.5, 1.7, 2.0, 3.0}) {
    started = std::chrono::steady_clock::now();
    TwoClassTable whole = TwoClassCapacity(1.0, ratio, big_max, big_max).table();
    const double elapsed = seconds_since(started);
    timing.rows.push_back({fmt::format("{}", ratio), std::to_string(big_max), std::to_string(big_max), "capacity (ours)",
                           fmt::format("{:.6f}", elapsed), std::to_string(whole.total_references),
                           fmt::format("{}", whole.at(big_max, big_max))});
    const std::string line = fmt::format("c_s = {}: whole T(f, s) table, f, s <= {}, by capacity: {:.3f} s ({} references)",
                                         ratio, big_max, elapsed, whole.total_references);
    options.progress(line);
    summary += line + "\n";
  }

  ExperimentResult result;
  const std::string csv = options.out_dir + "/dp-references.csv";
  const std::string timing_csv = options.out_dir + "/dp-references-timing.csv";
  const std::string svg = options.out_dir + "/dp-references.svg";
  references.write(csv);
  timing.write(timing_csv);
  write_line_plot_svg(svg, plot);
  result.files = {csv, timing_csv, svg};
  result.summary = summary;
  return result;
}

void register_dp_references_experiment(std::vector<Experiment>& list) {
  list.push_back({"dp-references",
                  "two-class reduce DP: table references of the naive, Lemma 4 and Lemma 4+5 DPs; whole T(f, s) table timed",
                  "Liu, Kuo, Wang 2009 sec. 6.3, Tables 2-4", run_dp_references});
}

}  // namespace hetcoll
