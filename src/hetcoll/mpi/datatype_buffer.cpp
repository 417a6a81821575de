#include "hetcoll/mpi/datatype_buffer.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>

namespace hetcoll::mpi {

DatatypeLayout DatatypeLayout::of(MPI_Datatype datatype) {
  DatatypeLayout layout;
  MPI_Aint lb = 0;
  MPI_Type_get_extent(datatype, &lb, &layout.extent);
  MPI_Type_get_true_extent(datatype, &layout.true_lb, &layout.true_extent);
  MPI_Type_size(datatype, &layout.size);
  layout.contiguous = layout.true_lb == 0 && lb == 0 && layout.extent == layout.size &&
                      layout.true_extent == layout.size;
  return layout;
}

MPI_Aint DatatypeLayout::span_begin(std::size_t count) const {
  if (count == 0) return 0;
  auto last = static_cast<MPI_Aint>(count - 1) * extent;
  return std::min(true_lb, true_lb + last);
}

MPI_Aint DatatypeLayout::span_end(std::size_t count) const {
  if (count == 0) return 0;
  auto last = static_cast<MPI_Aint>(count - 1) * extent;
  return std::max(true_lb + true_extent, true_lb + last + true_extent);
}

std::size_t DatatypeLayout::span_bytes(std::size_t count) const {
  return static_cast<std::size_t>(span_end(count) - span_begin(count));
}

ScratchBuffer::ScratchBuffer(const DatatypeLayout& layout, std::size_t count) : extent_(layout.extent) {
  std::size_t bytes = std::max<std::size_t>(layout.span_bytes(count), 1);
  storage_ = std::make_unique<std::byte[]>(bytes);
  base_ = storage_.get() - layout.span_begin(count);
}

void* ScratchBuffer::element(std::size_t index) const {
  return static_cast<std::byte*>(base_) + static_cast<MPI_Aint>(index) * extent_;
}

void copy_elements(const void* source, void* target, std::size_t count, MPI_Datatype datatype,
                   const DatatypeLayout& layout) {
  if (count == 0 || source == target) return;
  if (layout.contiguous) {
    std::memcpy(target, source, count * static_cast<std::size_t>(layout.size));
    return;
  }
  // Sendrecv to oneself copies exactly the elements, holes untouched.
  constexpr int kCopyTag = 0;
  std::size_t done = 0;
  while (done < count) {
    int chunk = static_cast<int>(std::min<std::size_t>(count - done, INT_MAX));
    MPI_Sendrecv(element_address(source, done, layout), chunk, datatype, 0, kCopyTag,
                 element_address(target, done, layout), chunk, datatype, 0, kCopyTag, MPI_COMM_SELF,
                 MPI_STATUS_IGNORE);
    done += static_cast<std::size_t>(chunk);
  }
}

}  // namespace hetcoll::mpi
