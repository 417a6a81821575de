#include "hetcoll/plan/program_bytes.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {
namespace {

constexpr std::string_view kTag = "HCP1";
static_assert(std::endian::native == std::endian::little, "the program bytes are little-endian");

class Writer {
 public:
  template <typename T>
  void put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* raw = reinterpret_cast<const char*>(&value);
    bytes.insert(bytes.end(), raw, raw + sizeof(T));
  }
  void put_slice(const Slice& slice) {
    put<std::uint32_t>(slice.buffer);
    put<std::uint64_t>(slice.offset);
    put<std::uint64_t>(slice.count);
  }
  std::vector<char> bytes;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}
  template <typename T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    if (bytes_.size() - position_ < sizeof(T)) throw InputError("program", "the encoded program is truncated");
    T value;
    std::memcpy(&value, bytes_.data() + position_, sizeof(T));
    position_ += sizeof(T);
    return value;
  }
  // A count of items of at least `item_bytes` bytes each that the rest can hold.
  std::size_t get_count(std::size_t item_bytes) {
    const auto count = get<std::uint64_t>();
    if (count > (bytes_.size() - position_) / std::max<std::size_t>(item_bytes, 1)) {
      throw InputError("program", "the encoded program is truncated");
    }
    return static_cast<std::size_t>(count);
  }
  Slice get_slice() {
    Slice slice;
    slice.buffer = get<std::uint32_t>();
    slice.offset = static_cast<std::size_t>(get<std::uint64_t>());
    slice.count = static_cast<std::size_t>(get<std::uint64_t>());
    return slice;
  }
  std::string_view take(std::size_t length) {
    if (bytes_.size() - position_ < length) throw InputError("program", "the encoded program is truncated");
    const auto text = bytes_.substr(position_, length);
    position_ += length;
    return text;
  }
  bool done() const { return position_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t position_ = 0;
};

// Bytes of a step without its wait list.
constexpr std::size_t kStepBytes = 1 + 1 + 4 + 2 * (4 + 8 + 8) + 8 + 8;

}  // namespace

std::vector<char> encode_program(const CommProgram& program) {
  Writer out;
  out.bytes.assign(kTag.begin(), kTag.end());
  out.put<std::uint64_t>(program.name.size());
  out.bytes.insert(out.bytes.end(), program.name.begin(), program.name.end());
  out.put<std::int32_t>(program.ranks);
  out.put<std::uint8_t>(program.rank_order ? 1 : 0);
  out.put<std::uint64_t>(program.buffer_elements.size());
  for (auto elements : program.buffer_elements) out.put<std::uint64_t>(elements);
  out.put<std::uint64_t>(program.steps.size());
  for (const auto& steps : program.steps) {
    out.put<std::uint64_t>(steps.size());
    for (const auto& step : steps) {
      out.put<std::uint8_t>(static_cast<std::uint8_t>(step.kind));
      out.put<std::uint8_t>(step.synchronous ? 1 : 0);
      out.put<std::int32_t>(step.peer);
      out.put_slice(step.data);
      out.put_slice(step.into);
      out.put<double>(step.seconds);
      out.put<std::uint64_t>(step.requests.size());
      for (auto request : step.requests) out.put<std::uint32_t>(request);
    }
  }
  return out.bytes;
}

CommProgram decode_program(std::string_view bytes, std::size_t data_elements) {
  ByteReader in(bytes);
  if (in.take(kTag.size()) != kTag) throw InputError("program", "not an encoded program");
  CommProgram program;
  program.name = std::string(in.take(in.get_count(1)));
  program.ranks = in.get<std::int32_t>();
  program.rank_order = in.get<std::uint8_t>() != 0;
  program.buffer_elements.resize(in.get_count(8));
  for (auto& elements : program.buffer_elements) elements = static_cast<std::size_t>(in.get<std::uint64_t>());
  program.steps.resize(in.get_count(8));
  for (auto& steps : program.steps) {
    steps.resize(in.get_count(kStepBytes));
    for (auto& step : steps) {
      const auto kind = in.get<std::uint8_t>();
      if (kind > static_cast<std::uint8_t>(ProgramStep::Kind::pace)) {
        throw InputError("program", fmt::format("unknown step kind {}", kind));
      }
      step.kind = static_cast<ProgramStep::Kind>(kind);
      step.synchronous = in.get<std::uint8_t>() != 0;
      step.peer = in.get<std::int32_t>();
      step.data = in.get_slice();
      step.into = in.get_slice();
      step.seconds = in.get<double>();
      step.requests.resize(in.get_count(4));
      for (auto& request : step.requests) request = in.get<std::uint32_t>();
    }
  }
  if (!in.done()) throw InputError("program", "trailing bytes after the encoded program");
  check_program(program, data_elements);
  return program;
}

}  // namespace hetcoll
