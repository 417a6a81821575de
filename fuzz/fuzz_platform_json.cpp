// libFuzzer target for the JSON platform reader (docs/FUZZING.md).
//
// Any input must either give a platform or throw hetcoll::InputError; any
// other exception, a crash, a sanitizer report or a slow input is a bug. A
// platform that was read must also survive being written back and read again
// with the same size, since `hetcoll --out` writes what the reader accepted.
// The fast cluster readers (load_platform_file's: streaming, then simdjson)
// must read every input they accept exactly as the reference reader does.
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "hetcoll/core/error.h"
#include "hetcoll/model/cluster_json_reader_internal.h"
#include "hetcoll/model/cluster_json_stream_internal.h"
#include "hetcoll/model/platform_io.h"

namespace {

// The streaming reader over the input, in chunks of 7 bytes (every refill
// path taken on short inputs).
std::optional<hetcoll::Cluster> read_streaming(std::string text) {
  if (text.empty()) return std::nullopt;
  std::FILE* file = fmemopen(text.data(), text.size(), "rb");
  if (file == nullptr) return std::nullopt;
  std::optional<hetcoll::Cluster> read = hetcoll::read_cluster_json_stream(file, "fuzz.json", text.size(), 7);
  std::fclose(file);
  return read;
}

bool reads_differently(const std::optional<hetcoll::Cluster>& fast, const hetcoll::LoadedPlatform& loaded) {
  return fast && (!loaded.is_cluster() || fast->ids() != loaded.cluster().ids() ||
                  fast->transmission_times() != loaded.cluster().transmission_times());
}

void check_round_trip(const hetcoll::LoadedPlatform& loaded) {
  std::ostringstream written;
  if (loaded.is_cluster()) {
    hetcoll::write_cluster_json(written, loaded.cluster());
  } else {
    hetcoll::write_platform_json(written, loaded.graph());
  }
  // An InputError here escapes on purpose: what was read must read back.
  hetcoll::LoadedPlatform again = hetcoll::parse_platform_json(written.str(), "round-trip.json");
  bool same_size = loaded.is_cluster() ? again.is_cluster() && again.cluster().size() == loaded.cluster().size()
                                       : !again.is_cluster() && again.graph().size() == loaded.graph().size() &&
                                             again.graph().edges().size() == loaded.graph().edges().size();
  if (!same_size) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string padded(text);
  padded.reserve(size + hetcoll::kJsonReadPadding);
  std::optional<hetcoll::Cluster> fast = hetcoll::read_cluster_json_fast(padded, "fuzz.json");
  std::optional<hetcoll::Cluster> streamed = read_streaming(std::string(text));
  hetcoll::LoadedPlatform loaded;
  try {
    loaded = hetcoll::parse_platform_json(text, "fuzz.json");
  } catch (const hetcoll::InputError&) {
    if (fast || streamed) std::abort();  // a fast reader accepted what the reference rejects
    return 0;  // bad input, reported properly
  }
  if (reads_differently(fast, loaded) || reads_differently(streamed, loaded)) std::abort();
  check_round_trip(loaded);
  return 0;
}
