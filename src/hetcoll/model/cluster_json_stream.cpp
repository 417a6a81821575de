#include "hetcoll/model/cluster_json_stream_internal.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "hetcoll/core/error.h"

namespace hetcoll {
namespace {

// The file through a sliding buffer: refill() keeps at least
// kClusterStreamWindow bytes (or the rest of the file) readable from the
// cursor, so that one processor entry parses without further checks for
// more input; parsing past `end` means the entry is too long or the file
// ends there, and the document is declined.
class ChunkedInput {
 public:
  ChunkedInput(std::FILE* file, std::size_t chunk_bytes)
      : file_(file), chunk_bytes_(chunk_bytes == 0 ? 1 : chunk_bytes), buffer_(chunk_bytes_ + 2 * kClusterStreamWindow) {
    cursor_ = end_ = buffer_.data();
  }

  // False when the file cannot be read.
  bool refill() {
    std::size_t left = static_cast<std::size_t>(end_ - cursor_);
    if (left >= kClusterStreamWindow || at_eof_) return true;
    std::memmove(buffer_.data(), cursor_, left);
    cursor_ = buffer_.data();
    end_ = cursor_ + left;
    while (!at_eof_ && static_cast<std::size_t>(end_ - cursor_) < kClusterStreamWindow) {
      std::size_t room = buffer_.size() - static_cast<std::size_t>(end_ - buffer_.data());
      std::size_t got = std::fread(const_cast<char*>(end_), 1, std::min(room, chunk_bytes_), file_);
      end_ += got;
      if (got == 0) {
        if (std::ferror(file_)) return false;
        at_eof_ = true;
      }
    }
    return true;
  }

  void skip_whitespace() {
    while (cursor_ < end_ && (*cursor_ == ' ' || *cursor_ == '\n' || *cursor_ == '\r' || *cursor_ == '\t')) ++cursor_;
  }
  // Skips whitespace across refills (long runs between entries).
  bool skip_whitespace_refilling() {
    for (;;) {
      skip_whitespace();
      if (cursor_ < end_ || at_eof_) return true;
      if (!refill()) return false;
    }
  }
  bool take(char expected) {
    if (cursor_ == end_ || *cursor_ != expected) return false;
    ++cursor_;
    return true;
  }
  bool next_is(char expected) const { return cursor_ < end_ && *cursor_ == expected; }
  bool at_end_of_file() const { return cursor_ == end_ && at_eof_; }

  // A string of printable ASCII without escapes; the view lives until the
  // next refill.
  bool string(std::string_view& out) {
    if (!take('"')) return false;
    const char* begin = cursor_;
    while (cursor_ < end_) {
      unsigned char c = static_cast<unsigned char>(*cursor_);
      if (c == '"') {
        out = std::string_view(begin, static_cast<std::size_t>(cursor_ - begin));
        ++cursor_;
        return true;
      }
      if (c < 0x20 || c >= 0x80 || c == '\\') return false;
      ++cursor_;
    }
    return false;
  }

  // A number in JSON's grammar, correctly rounded to a finite double.
  bool number(double& out) {
    const char* begin = cursor_;
    const char* p = cursor_;
    auto digits = [&] {
      const char* first = p;
      while (p < end_ && *p >= '0' && *p <= '9') ++p;
      return p > first;
    };
    if (p < end_ && *p == '-') ++p;
    if (p < end_ && *p == '0') {
      ++p;
    } else if (!digits()) {
      return false;
    }
    if (p < end_ && *p == '.') {
      ++p;
      if (!digits()) return false;
    }
    if (p < end_ && (*p == 'e' || *p == 'E')) {
      ++p;
      if (p < end_ && (*p == '+' || *p == '-')) ++p;
      if (!digits()) return false;
    }
    if (p == end_) return false;  // the entry goes on past the window
    auto [stop, error] = std::from_chars(begin, p, out);
    if (error != std::errc() || stop != p || !std::isfinite(out)) return false;
    cursor_ = p;
    return true;
  }

 private:
  std::FILE* file_;
  std::size_t chunk_bytes_;
  std::vector<char> buffer_;
  const char* cursor_ = nullptr;
  const char* end_ = nullptr;
  bool at_eof_ = false;
};

bool key_and_colon(ChunkedInput& input, std::string_view& key) {
  input.skip_whitespace();
  if (!input.string(key)) return false;
  input.skip_whitespace();
  if (!input.take(':')) return false;
  input.skip_whitespace();
  return true;
}

// {"id": "...", "t": number} in either order.
bool read_processor(ChunkedInput& input, PackedIds& ids, std::vector<double>& times) {
  if (!input.take('{')) return false;
  bool have_id = false, have_time = false;
  for (int member = 0; member < 2; ++member) {
    if (member == 1) {
      input.skip_whitespace();
      if (!input.take(',')) return false;
    }
    std::string_view key;
    if (!key_and_colon(input, key)) return false;
    if (key == "id" && !have_id) {
      std::string_view id;
      if (!input.string(id)) return false;
      ids.push_back(id);
      have_id = true;
    } else if (key == "t" && !have_time) {
      double time = 0;
      if (!input.number(time)) return false;
      times.push_back(time);
      have_time = true;
    } else {
      return false;
    }
  }
  input.skip_whitespace();
  return input.take('}');
}

bool read_processors(ChunkedInput& input, PackedIds& ids, std::vector<double>& times) {
  if (!input.take('[')) return false;
  for (;;) {
    if (!input.refill() || !input.skip_whitespace_refilling() || !input.refill()) return false;
    if (!read_processor(input, ids, times)) return false;
    if (!input.skip_whitespace_refilling()) return false;
    if (input.take(']')) return true;
    if (!input.take(',')) return false;
  }
}

}  // namespace

std::optional<Cluster> read_cluster_json_stream(std::FILE* file, std::string_view source_name, std::size_t size_hint,
                                                std::size_t chunk_bytes) {
  if (file == nullptr) return std::nullopt;
  ChunkedInput input(file, chunk_bytes);
  if (!input.refill() || !input.skip_whitespace_refilling() || !input.take('{')) return std::nullopt;
  PackedIds ids;
  std::vector<double> times;
  // A plain cluster file spends about 25 bytes per processor: reserve once.
  ids.reserve(size_hint / 24, size_hint / 3);
  times.reserve(size_hint / 24);
  bool have_model = false, have_processors = false;
  for (;;) {
    if (!input.refill() || !input.skip_whitespace_refilling() || !input.refill()) return std::nullopt;
    std::string_view key;
    if (!key_and_colon(input, key)) return std::nullopt;
    if (key == "model" && !have_model) {
      std::string_view model;
      if (!input.string(model) || model != "cluster") return std::nullopt;
      have_model = true;
    } else if (key == "processors" && !have_processors) {
      if (!read_processors(input, ids, times)) return std::nullopt;
      have_processors = true;
    } else {
      return std::nullopt;
    }
    if (!input.skip_whitespace_refilling()) return std::nullopt;
    if (input.take('}')) break;
    if (!input.take(',')) return std::nullopt;
  }
  if (!input.refill() || !input.skip_whitespace_refilling() || !input.at_end_of_file()) return std::nullopt;
  if (!have_model || !have_processors || ids.empty()) return std::nullopt;
  try {
    return Cluster::with_packed_ids(std::move(ids), std::move(times), source_name);
  } catch (const InputError&) {
    return std::nullopt;  // the reference reader words the message
  }
}

}  // namespace hetcoll
