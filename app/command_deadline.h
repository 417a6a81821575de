// One wall-clock limit for a whole command, including the phases that cannot
// stop on their own: an LP solve with its exact re-solve (Clp, the rational
// basis, QSopt_ex), a schedule's decomposition into matchings.
//
//  * CommandDeadline: armed when the command starts. If the command is
//    still working at the limit (plus 8 %), it prints "hetcoll: no plan
//    within the limit: ..." with the phase it was in and ends the process
//    with exit code 4. disarm() before any output is written: a file is
//    either whole or never started.
//  * run_within(): work whose answer the command can do without (the
//    multi-tree optimum next to a tree) runs on a thread of its own; when it
//    is not done in time the command goes on without it, and the process
//    ends through finish_process() so the abandoned thread never outlives
//    the objects it reads.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

namespace hetcoll::cli {

class CommandDeadline {
 public:
  // `seconds`: the limit (infinity: never fires, no thread). `command`
  // names the command in the message ("steady scatter").
  CommandDeadline(double seconds, std::string command);
  ~CommandDeadline();
  CommandDeadline(const CommandDeadline&) = delete;
  CommandDeadline& operator=(const CommandDeadline&) = delete;

  // What the command is doing now ("the LP", "the schedule"), for the message.
  void phase(std::string name);
  // From here on the command finishes whatever the time.
  void disarm();
  // Seconds left before the limit (infinity without one, >= 0).
  double remaining_seconds() const;
  double limit_seconds() const { return seconds_; }
  // The watchdog fires at the limit times this.
  static constexpr double kGrace = 1.08;

 private:
  void watch();

  double seconds_;
  std::string command_;
  std::chrono::steady_clock::time_point started_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string phase_;
  bool disarmed_ = false;
  std::thread watcher_;
};

// --time-limit of the steady commands: the whole command (reading, the LP
// and its exact re-solve, the schedule, verification, simulation), default
// none. Seconds, or infinity for "none" or empty; InputError otherwise.
double steady_time_limit(const std::string& option);
void add_steady_time_limit_option(CLI::App* command, std::string& option);

// Marks that a thread of abandoned work is still running (run_within).
void note_abandoned_work();

// Ends the process with `code` once standard output is flushed: through
// std::_Exit when run_within abandoned work (its thread must not run into
// static destructors), else simply returns `code` for main to return.
int finish_process(int code);

// Runs `work` on its own thread and waits at most `seconds` for it: its
// result, or nullopt when it did not finish (it keeps running, abandoned;
// everything it reads must be owned by the callable).
template <typename T>
std::optional<T> run_within(double seconds, std::function<T()> work) {
  struct Shared {
    std::mutex mutex;
    std::condition_variable done_signal;
    std::optional<T> result;
    std::exception_ptr error;
    bool done = false;
  };
  auto shared = std::make_shared<Shared>();
  std::thread([shared, work = std::move(work)] {
    std::optional<T> result;
    std::exception_ptr error;
    try {
      result.emplace(work());
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard lock(shared->mutex);
    shared->result = std::move(result);
    shared->error = error;
    shared->done = true;
    shared->done_signal.notify_all();
  }).detach();
  std::unique_lock lock(shared->mutex);
  const auto wait = std::chrono::duration<double>(seconds);
  if (!(seconds < 1e9)) {
    shared->done_signal.wait(lock, [&] { return shared->done; });
  } else if (!shared->done_signal.wait_for(lock, std::chrono::duration_cast<std::chrono::nanoseconds>(wait),
                                           [&] { return shared->done; })) {
    note_abandoned_work();
    return std::nullopt;
  }
  if (shared->error) std::rethrow_exception(shared->error);
  return std::move(shared->result);
}

}  // namespace hetcoll::cli
