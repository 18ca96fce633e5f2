//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reads and writes the NumPy array format (versions 1.0, 2.0 and 3.0):
// the magic "\x93NUMPY", a version, a little-endian header length and a
// Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape':
// (2, 3), }, then the raw C-order data. Little-endian (or byte-sized)
// floats and integers are supported; big-endian and Fortran-order arrays
// are reported as errors that name the file.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_NPY_H
#define SAGE_RUNTIME_NPY_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sage::rt {

/// Element types of .npy files.
enum class NpyType { F16, F32, F64, I8, U8, I16, I32, I64 };

/// Returns the bytes of one \p type element.
size_t npySize(NpyType type);
/// Returns the little-endian descr of \p type ('<f4', '|i1', ...).
const char *npyDescr(NpyType type);

/// An array read from or written to a .npy file.
struct NpyArray {
  NpyType type = NpyType::F32;
  std::vector<int64_t> shape;
  /// Raw little-endian C-order elements.
  std::vector<uint8_t> data;

  /// Returns the number of elements (1 for a scalar).
  int64_t elements() const;
  /// Returns every element converted to float (f16 decoded exactly).
  std::vector<float> toFloat() const;
};

/// What the header of a .npy file says, before anything checks it.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  /// Where the data starts in the file.
  size_t dataOffset = 0;
};

/// Parses the magic, version and header dict at the start of \p bytes (not
/// the data). Returns an empty string or a message (without the file name).
std::string parseNpyHeader(std::string_view bytes, NpyHeader &header);

/// Maps a little-endian, native or byte-sized descr ('<f4', '=f2', '|i1')
/// to its type; returns false for a big-endian or unknown one.
bool getNpyType(const std::string &descr, NpyType &type);

/// Sets \p bytes to the size of the data of \p shape elements of \p type;
/// returns false if that does not fit in 64 bits.
bool getNpyDataBytes(const std::vector<int64_t> &shape, NpyType type,
                     uint64_t &bytes);

/// Returns a shape as NumPy's header spells it, without the 1-tuple's
/// comma: "(2, 3)", "(3)", "()".
std::string formatNpyShape(const std::vector<int64_t> &shape);

/// Parses the contents of a .npy file. Returns an empty string or a message
/// (without the file name).
std::string parseNpy(std::string_view bytes, NpyArray &array);

/// Reads \p path; an error is "PATH: REASON".
std::string readNpy(const std::string &path, NpyArray &array);

/// Returns \p array encoded as a version 1.0 .npy file (header padded to a
/// multiple of 64 bytes, as NumPy writes it).
std::string encodeNpy(const NpyArray &array);

/// Writes \p array to \p path; an error names the path.
std::string writeNpy(const std::string &path, const NpyArray &array);

/// Returns an f32 array of \p shape holding \p values.
NpyArray makeF32Array(const std::vector<int64_t> &shape,
                      const std::vector<float> &values);

} // namespace sage::rt

#endif // SAGE_RUNTIME_NPY_H
