// Replays fuzz corpora through a libFuzzer target without libFuzzer: the
// CTest `fuzz_replay_*` tests link this driver with a target's
// LLVMFuzzerTestOneInput in the ordinary (g++) build, so every saved input
// of fuzz/corpus/ is re-checked by the default suite at no extra build tree.
// Fuzzing itself (new inputs, sanitizers) is scripts/fuzz (docs/FUZZING.md).
//
// Usage: fuzz_replay_TARGET FILE_OR_DIRECTORY...
// Exit 0 when every input passed; a bug aborts (the target's own checks) or
// escapes as an exception, which is reported with the input's name.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::filesystem::path> inputs_of(const std::filesystem::path& argument) {
  std::vector<std::filesystem::path> inputs;
  if (std::filesystem::is_directory(argument)) {
    for (const auto& entry : std::filesystem::directory_iterator(argument)) {
      if (entry.is_regular_file()) inputs.push_back(entry.path());
    }
  } else {
    inputs.push_back(argument);
  }
  return inputs;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " FILE_OR_DIRECTORY...\n";
    return 2;
  }
  std::size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    for (const auto& path : inputs_of(argv[i])) {
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        std::cerr << "cannot read " << path << "\n";
        return 2;
      }
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      try {
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      } catch (const std::exception& error) {
        std::cerr << "FAIL " << path << ": escaped exception: " << error.what() << "\n";
        return 1;
      }
      ++replayed;
    }
  }
  if (replayed == 0) {
    std::cerr << "no inputs found\n";
    return 1;
  }
  std::cout << replayed << " inputs replayed, none failed\n";
  return 0;
}
