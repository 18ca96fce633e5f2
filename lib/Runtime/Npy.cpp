//===- Npy.cpp - NumPy .npy files -----------------------------------------===//

#include "sage/Runtime/Npy.h"

#include "sage/Reference/Formats.h"
#include "sage/Runtime/Plan.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

using namespace sage::rt;

static const char kMagic[] = "\x93NUMPY";
static constexpr size_t kMagicSize = 6;

size_t sage::rt::npySize(NpyType type) {
  switch (type) {
  case NpyType::I8:
  case NpyType::U8:
    return 1;
  case NpyType::F16:
  case NpyType::I16:
    return 2;
  case NpyType::F32:
  case NpyType::I32:
    return 4;
  case NpyType::F64:
  case NpyType::I64:
    return 8;
  }
  return 1;
}

const char *sage::rt::npyDescr(NpyType type) {
  switch (type) {
  case NpyType::F16:
    return "<f2";
  case NpyType::F32:
    return "<f4";
  case NpyType::F64:
    return "<f8";
  case NpyType::I8:
    return "|i1";
  case NpyType::U8:
    return "|u1";
  case NpyType::I16:
    return "<i2";
  case NpyType::I32:
    return "<i4";
  case NpyType::I64:
    return "<i8";
  }
  return "?";
}

int64_t NpyArray::elements() const {
  int64_t n = 1;
  for (int64_t extent : shape)
    n *= extent;
  return n;
}

/// Reads a little-endian value of type T at element \p i of \p data.
template <typename T> static T loadLE(const uint8_t *data, int64_t i) {
  T value;
  std::memcpy(&value, data + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return value;
}

std::vector<float> NpyArray::toFloat() const {
  int64_t n = elements();
  std::vector<float> out(static_cast<size_t>(n));
  const uint8_t *p = data.data();
  for (int64_t i = 0; i < n; ++i) {
    switch (type) {
    case NpyType::F16:
      out[i] = sage::ref::decodeF16(loadLE<uint16_t>(p, i));
      break;
    case NpyType::F32:
      out[i] = loadLE<float>(p, i);
      break;
    case NpyType::F64:
      out[i] = static_cast<float>(loadLE<double>(p, i));
      break;
    case NpyType::I8:
      out[i] = static_cast<float>(loadLE<int8_t>(p, i));
      break;
    case NpyType::U8:
      out[i] = static_cast<float>(loadLE<uint8_t>(p, i));
      break;
    case NpyType::I16:
      out[i] = static_cast<float>(loadLE<int16_t>(p, i));
      break;
    case NpyType::I32:
      out[i] = static_cast<float>(loadLE<int32_t>(p, i));
      break;
    case NpyType::I64:
      out[i] = static_cast<float>(loadLE<int64_t>(p, i));
      break;
    }
  }
  return out;
}

namespace {
/// A parser of the header's Python dict literal.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text(text) {}

  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;

  /// Parses the dict; returns an empty string or a message.
  std::string parse() {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    if (!consume('{'))
      return fail("expected '{'");
    while (true) {
      skipSpaces();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key))
        return fail("expected a quoted key");
      if (!consume(':'))
        return fail("expected ':' after '" + key + "'");
      skipSpaces();
      if (key == "descr") {
        if (!parseString(descr))
          return fail("expected a string for 'descr'");
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (text.substr(pos, 4) == "True") {
          fortranOrder = true;
          pos += 4;
        } else if (text.substr(pos, 5) == "False") {
          fortranOrder = false;
          pos += 5;
        } else {
          return fail("expected True or False for 'fortran_order'");
        }
        haveOrder = true;
      } else if (key == "shape") {
        if (!parseShape())
          return fail("expected a tuple of integers for 'shape'");
        haveShape = true;
      } else {
        return fail("unknown key '" + key + "'");
      }
      skipSpaces();
      if (consume(','))
        continue;
      if (consume('}'))
        break;
      return fail("expected ',' or '}'");
    }
    if (!haveDescr)
      return "malformed header: missing 'descr'";
    if (!haveOrder)
      return "malformed header: missing 'fortran_order'";
    if (!haveShape)
      return "malformed header: missing 'shape'";
    return std::string();
  }

private:
  std::string fail(const std::string &what) const {
    return "malformed header: " + what + " at offset " + std::to_string(pos);
  }

  void skipSpaces() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }

  bool consume(char c) {
    skipSpaces();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  bool parseString(std::string &out) {
    skipSpaces();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return false;
    size_t end = text.find(text[pos], pos + 1);
    if (end == std::string_view::npos)
      return false;
    std::string_view body = text.substr(pos + 1, end - pos - 1);
    // Keys and dtypes are printable ASCII; anything else would reach a
    // message and could break it over lines.
    for (char c : body)
      if (!std::isprint(static_cast<unsigned char>(c)))
        return false;
    out = std::string(body);
    pos = end + 1;
    return true;
  }

  bool parseShape() {
    if (!consume('('))
      return false;
    while (true) {
      skipSpaces();
      if (consume(')'))
        return true;
      if (pos >= text.size() ||
          !std::isdigit(static_cast<unsigned char>(text[pos])))
        return false;
      int64_t value = 0;
      while (pos < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[pos]))) {
        if (value > (INT64_MAX - 9) / 10)
          return false;
        value = value * 10 + (text[pos++] - '0');
      }
      if (pos < text.size() && text[pos] == 'L')
        ++pos;
      shape.push_back(value);
      if (consume(','))
        continue;
      return consume(')');
    }
  }

  std::string_view text;
  size_t pos = 0;
};
} // namespace

bool sage::rt::getNpyType(const std::string &descr, NpyType &type) {
  // '>' is big-endian; it changes nothing for byte-sized types.
  if (descr.empty())
    return false;
  std::string body = descr.substr(1);
  bool bigEndian = descr[0] == '>';
  if (descr[0] != '<' && descr[0] != '|' && descr[0] != '=' && !bigEndian)
    return false;
  static const std::pair<const char *, NpyType> kTypes[] = {
      {"f2", NpyType::F16}, {"f4", NpyType::F32}, {"f8", NpyType::F64},
      {"i1", NpyType::I8},  {"u1", NpyType::U8},  {"b1", NpyType::U8},
      {"i2", NpyType::I16}, {"i4", NpyType::I32}, {"i8", NpyType::I64}};
  for (const auto &[name, candidate] : kTypes)
    if (body == name && (!bigEndian || npySize(candidate) == 1)) {
      type = candidate;
      return true;
    }
  return false;
}

bool sage::rt::getNpyDataBytes(const std::vector<int64_t> &shape, NpyType type,
                               uint64_t &bytes) {
  // A crafted header may promise more than 64 bits can count; checking
  // here keeps a wrapped-around size from matching a short file.
  uint64_t total = npySize(type);
  for (int64_t extent : shape)
    if (extent < 0 ||
        __builtin_mul_overflow(total, static_cast<uint64_t>(extent), &total))
      return false;
  bytes = total;
  return true;
}

std::string sage::rt::formatNpyShape(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + ")";
}

std::string sage::rt::parseNpyHeader(std::string_view bytes,
                                     NpyHeader &header) {
  if (bytes.size() < kMagicSize + 2 ||
      bytes.substr(0, kMagicSize) != std::string_view(kMagic, kMagicSize))
    return "not a NumPy file (bad magic)";
  unsigned major = static_cast<unsigned char>(bytes[kMagicSize]);
  unsigned minor = static_cast<unsigned char>(bytes[kMagicSize + 1]);
  if (major < 1 || major > 3)
    return "unsupported .npy version " + std::to_string(major) + "." +
           std::to_string(minor) + " (expected 1.0, 2.0 or 3.0)";
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t prefix = kMagicSize + 2 + lengthBytes;
  if (bytes.size() < prefix)
    return "truncated header: " + std::to_string(bytes.size()) +
           " bytes, the magic, version and header length need " +
           std::to_string(prefix);
  size_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= static_cast<size_t>(
                        static_cast<unsigned char>(bytes[kMagicSize + 2 + i]))
                    << (8 * i);
  if (bytes.size() - prefix < headerLength)
    return "truncated header: " + std::to_string(headerLength) +
           " bytes announced, " + std::to_string(bytes.size() - prefix) +
           " present";
  HeaderParser parser(bytes.substr(prefix, headerLength));
  std::string error = parser.parse();
  if (!error.empty())
    return error;
  header.descr = parser.descr;
  header.fortranOrder = parser.fortranOrder;
  header.shape = parser.shape;
  header.dataOffset = prefix + headerLength;
  return std::string();
}

std::string sage::rt::parseNpy(std::string_view bytes, NpyArray &array) {
  NpyHeader header;
  std::string error = parseNpyHeader(bytes, header);
  if (!error.empty())
    return error;
  NpyArray result;
  if (!header.descr.empty() && header.descr[0] == '>' &&
      getNpyType("<" + header.descr.substr(1), result.type))
    return "big-endian dtype '" + header.descr + "' is not supported";
  if (!getNpyType(header.descr, result.type))
    return "unsupported dtype '" + header.descr +
           "' (expected f2, f4, f8, i1, u1, b1, i2, i4 or i8)";
  if (header.fortranOrder)
    return "fortran_order arrays are not supported";
  result.shape = header.shape;
  uint64_t need = 0;
  if (!getNpyDataBytes(result.shape, result.type, need))
    return "shape " + formatNpyShape(result.shape) + " of " + header.descr +
           " overflows 64 bits";
  size_t have = bytes.size() - header.dataOffset;
  if (have != need)
    return "data holds " + std::to_string(have) + " bytes but shape " +
           formatNpyShape(result.shape) + " of " + header.descr + " needs " +
           std::to_string(need);
  const char *data = bytes.data() + header.dataOffset;
  result.data.assign(data, data + need);
  array = std::move(result);
  return std::string();
}

std::string sage::rt::readNpy(const std::string &path, NpyArray &array) {
  std::string bytes;
  bool opened = false;
  std::string error = readFileBytes(path, bytes, opened);
  if (!error.empty())
    return path + (opened ? ": cannot read: " : ": cannot open: ") + error;
  error = parseNpy(bytes, array);
  if (!error.empty())
    return path + ": " + error;
  return std::string();
}

std::string sage::rt::encodeNpy(const NpyArray &array) {
  // NumPy spells shapes as "()", "(3,)" and "(2, 3)".
  std::string tuple = "(";
  for (size_t i = 0; i < array.shape.size(); ++i) {
    tuple += std::to_string(array.shape[i]);
    if (array.shape.size() == 1)
      tuple += ",";
    else if (i + 1 < array.shape.size())
      tuple += ", ";
  }
  tuple += ")";
  std::string header = std::string("{'descr': '") + npyDescr(array.type) +
                       "', 'fortran_order': False, 'shape': " + tuple + ", }";
  // Pad with spaces so magic + version + length + header + '\n' is a
  // multiple of 64.
  size_t total = kMagicSize + 2 + 2 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, kMagicSize);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>((header.size() >> 8) & 0xFF);
  out += header;
  out.append(reinterpret_cast<const char *>(array.data.data()),
             array.data.size());
  return out;
}

std::string sage::rt::writeNpy(const std::string &path, const NpyArray &array) {
  std::string bytes = encodeNpy(array);
  std::ofstream stream(path, std::ios::binary | std::ios::trunc);
  if (!stream)
    return path + ": cannot write: " + std::strerror(errno);
  stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  stream.close();
  if (!stream)
    return path + ": write failed";
  return std::string();
}

NpyArray sage::rt::makeF32Array(const std::vector<int64_t> &shape,
                                const std::vector<float> &values) {
  NpyArray array;
  array.type = NpyType::F32;
  array.shape = shape;
  array.data.resize(values.size() * sizeof(float));
  if (!values.empty())
    std::memcpy(array.data.data(), values.data(), array.data.size());
  return array;
}
