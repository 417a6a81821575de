#include "command_deadline.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>

#include <fmt/format.h>

#include "cli_common.h"
#include "hetcoll/core/error.h"

namespace hetcoll::cli {

namespace {
std::atomic<bool> abandoned_work{false};

std::string seconds_text(double seconds) { return fmt::format("{:g} s", seconds); }
}  // namespace

CommandDeadline::CommandDeadline(double seconds, std::string command)
    : seconds_(seconds), command_(std::move(command)), started_(std::chrono::steady_clock::now()) {
  if (std::isfinite(seconds_)) watcher_ = std::thread([this] { watch(); });
}

CommandDeadline::~CommandDeadline() { disarm(); }

void CommandDeadline::phase(std::string name) {
  std::lock_guard lock(mutex_);
  phase_ = std::move(name);
}

void CommandDeadline::disarm() {
  {
    std::lock_guard lock(mutex_);
    disarmed_ = true;
  }
  wake_.notify_all();
  if (watcher_.joinable()) watcher_.join();
}

double CommandDeadline::remaining_seconds() const {
  if (!std::isfinite(seconds_)) return std::numeric_limits<double>::infinity();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return std::max(0.0, seconds_ - elapsed);
}

void CommandDeadline::watch() {
  // The phases that stop on their own (searches) stop at the limit; this
  // is for the others, a little later (within the 10 % the limit allows),
  // so that a search that just stopped can still print its plan.
  const auto deadline = started_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                       std::chrono::duration<double>(seconds_ * kGrace));
  std::unique_lock lock(mutex_);
  if (wake_.wait_until(lock, deadline, [this] { return disarmed_; })) return;
  // Still working at the limit, and holding the lock: disarm() (before any
  // output) cannot pass it, so nothing has been written.
  const std::string message = fmt::format(
      "hetcoll: no plan within the limit: {} was still running {}after the time limit of {} (--time-limit); give "
      "it more time or a smaller platform\n",
      command_, phase_.empty() ? std::string() : "(" + phase_ + ") ", seconds_text(seconds_));
  std::fputs(message.c_str(), stderr);
  std::fflush(stderr);
  std::_Exit(static_cast<int>(ExitCode::limit_reached));
}

double steady_time_limit(const std::string& option) {
  if (option.empty() || option == "none") return std::numeric_limits<double>::infinity();
  LimitOptions limits;
  limits.time_limit = option;
  return parse_limits(limits).time_limit_seconds;
}

void add_steady_time_limit_option(CLI::App* command, std::string& option) {
  command->add_option("--time-limit", option,
                      "Wall-clock limit in seconds on the whole command (default none): reading, the LP and its "
                      "exact re-solve, the schedule, verification and --simulate. A run still working at the limit "
                      "prints \"no plan within the limit\" and exits with code 4");
}

void note_abandoned_work() { abandoned_work.store(true); }

int finish_process(int code) {
  if (!abandoned_work.load()) return code;
  std::cout.flush();
  std::fflush(stdout);
  if (!std::cout) {
    std::fputs("hetcoll: cannot write to standard output\n", stderr);
    code = static_cast<int>(ExitCode::bad_input);
  }
  std::fflush(stderr);
  std::_Exit(code);
}

}  // namespace hetcoll::cli
