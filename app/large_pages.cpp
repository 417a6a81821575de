// The hetcoll command's memory policy: every block of kLargeBlock bytes or
// more is marked for transparent huge pages (madvise MADV_HUGEPAGE), so the
// arrays of a million-processor run (the platform text, the cluster's
// columns, the plan's transfers, the verifier's tables) are faulted in 2 MiB
// at a time instead of 4 KiB. On the development machine a page fault costs
// about 15 us, and a million-processor broadcast touched 88,000 pages: half
// of its CPU time (docs/RESULTS.md, "A million processors end to end").
// Linux with transparent huge pages in "madvise" or "always" mode; elsewhere
// this is plain malloc. Only the command does this: the library allocates
// with the default operator new, and a program linking it keeps its own
// policy.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace {

constexpr std::size_t kLargeBlock = std::size_t{4} << 20;
constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;

void* allocate(std::size_t size) noexcept {
  void* block = std::malloc(size == 0 ? 1 : size);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (block && size >= kLargeBlock) {
    // The whole huge pages inside the block (madvise wants page-aligned
    // ranges; its failure only means small pages, so it is not checked).
    const auto address = reinterpret_cast<std::uintptr_t>(block);
    const std::uintptr_t begin = (address + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t end = (address + size) & ~(kHugePage - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
#endif
  return block;
}

void* allocate_or_throw(std::size_t size) {
  for (;;) {
    if (void* block = allocate(size)) return block;
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

void* operator new(std::size_t size) { return allocate_or_throw(size); }
void* operator new[](std::size_t size) { return allocate_or_throw(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void operator delete(void* block) noexcept { std::free(block); }
void operator delete[](void* block) noexcept { std::free(block); }
void operator delete(void* block, std::size_t) noexcept { std::free(block); }
void operator delete[](void* block, std::size_t) noexcept { std::free(block); }
void operator delete(void* block, const std::nothrow_t&) noexcept { std::free(block); }
void operator delete[](void* block, const std::nothrow_t&) noexcept { std::free(block); }
