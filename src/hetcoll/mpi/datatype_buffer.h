// Scratch buffers and copies for any MPI datatype, predefined or derived.
//
// A buffer of `count` elements of a datatype spans, from the address MPI is
// given, the bytes [true_lb, (count - 1) * extent + true_lb + true_extent)
// (or the mirror image for a negative extent). ScratchBuffer allocates
// exactly that span and hands MPI the address whose span it is, so MPI
// calls and MPI_Reduce_local may use it like the user's own buffer. Copies
// between the user's buffers go through memcpy when the datatype is
// contiguous (no holes, lower bound 0) and through MPI_Sendrecv on
// MPI_COMM_SELF otherwise, which is correct for every datatype, MPI_BOTTOM
// with absolute addresses included.
#pragma once

#include <cstddef>
#include <memory>

#include <mpi.h>

namespace hetcoll::mpi {

// The layout of `count` elements of `datatype`.
struct DatatypeLayout {
  MPI_Aint extent = 0;
  MPI_Aint true_lb = 0;
  MPI_Aint true_extent = 0;
  int size = 0;             // bytes of data in one element (MPI_Type_size)
  bool contiguous = false;  // one element = `size` bytes at offset 0, no holes

  static DatatypeLayout of(MPI_Datatype datatype);
  // Offsets of the lowest and one past the highest byte `count` elements touch.
  MPI_Aint span_begin(std::size_t count) const;
  MPI_Aint span_end(std::size_t count) const;
  std::size_t span_bytes(std::size_t count) const;
};

class ScratchBuffer {
 public:
  ScratchBuffer() = default;
  ScratchBuffer(const DatatypeLayout& layout, std::size_t count);

  // The address to give MPI for `count` elements (element 0's base).
  void* data() const { return base_; }
  // The address of element `index` (for slicing a buffer into blocks).
  void* element(std::size_t index) const;
  bool empty() const { return !storage_; }

 private:
  std::unique_ptr<std::byte[]> storage_;
  void* base_ = nullptr;
  MPI_Aint extent_ = 0;
};

// Copies `count` elements from `source` to `target` (both laid out as
// `datatype`). Either may be a user buffer or a ScratchBuffer.
void copy_elements(const void* source, void* target, std::size_t count, MPI_Datatype datatype,
                   const DatatypeLayout& layout);

// The address of element `index` of a buffer of `datatype` starting at `base`.
inline void* element_address(void* base, std::size_t index, const DatatypeLayout& layout) {
  return static_cast<std::byte*>(base) + static_cast<MPI_Aint>(index) * layout.extent;
}
inline const void* element_address(const void* base, std::size_t index, const DatatypeLayout& layout) {
  return static_cast<const std::byte*>(base) + static_cast<MPI_Aint>(index) * layout.extent;
}

}  // namespace hetcoll::mpi
