//===- NpyTest.cpp - NumPy .npy files -------------------------------------===//

#include "sage/Runtime/Npy.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstring>
#include <unistd.h>

using namespace sage::rt;

/// Returns a .npy file: magic, version, header length and \p header
/// (padded and terminated as NumPy does), then \p data.
static std::string makeFile(const std::string &header, const std::string &data,
                            int major = 1) {
  size_t lengthBytes = major == 1 ? 2 : 4;
  std::string padded = header;
  size_t total = 6 + 2 + lengthBytes + padded.size() + 1;
  padded.append((64 - total % 64) % 64, ' ');
  padded += '\n';
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < lengthBytes; ++i)
    out += static_cast<char>((padded.size() >> (8 * i)) & 0xFF);
  return out + padded + data;
}

/// Returns the bytes of \p values.
template <typename T> static std::string bytesOf(std::vector<T> values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(T));
}

static std::string parseError(const std::string &bytes) {
  NpyArray array;
  return parseNpy(bytes, array);
}

TEST(NpyTest, RoundTripF32) {
  NpyArray array = makeF32Array({2, 3}, {1, 2, 3, 4, 5, -6.5f});
  std::string bytes = encodeNpy(array);
  // NumPy aligns the data to 64 bytes.
  EXPECT_EQ((bytes.size() - array.data.size()) % 64, 0u);
  EXPECT_NE(bytes.find("{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(2, 3), }"),
            std::string::npos);
  NpyArray back;
  ASSERT_EQ(parseNpy(bytes, back), "");
  EXPECT_EQ(back.type, NpyType::F32);
  EXPECT_EQ(back.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(back.toFloat(), (std::vector<float>{1, 2, 3, 4, 5, -6.5f}));
}

TEST(NpyTest, OneAndZeroDimensions) {
  std::string bytes = encodeNpy(makeF32Array({3}, {1, 2, 3}));
  EXPECT_NE(bytes.find("'shape': (3,), }"), std::string::npos);
  NpyArray back;
  ASSERT_EQ(parseNpy(bytes, back), "");
  EXPECT_EQ(back.shape, (std::vector<int64_t>{3}));
  bytes = encodeNpy(makeF32Array({}, {42}));
  EXPECT_NE(bytes.find("'shape': (), }"), std::string::npos);
  ASSERT_EQ(parseNpy(bytes, back), "");
  EXPECT_TRUE(back.shape.empty());
  EXPECT_EQ(back.elements(), 1);
  EXPECT_EQ(back.toFloat(), (std::vector<float>{42}));
}

TEST(NpyTest, ReadsOtherTypesAndVersions) {
  // f16: 1.0 = 0x3C00, -2.0 = 0xC000, 65504 = 0x7BFF.
  std::string f16 =
      makeFile("{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }",
               bytesOf<uint16_t>({0x3C00, 0xC000, 0x7BFF}));
  NpyArray array;
  ASSERT_EQ(parseNpy(f16, array), "");
  EXPECT_EQ(array.type, NpyType::F16);
  EXPECT_EQ(array.toFloat(), (std::vector<float>{1.0f, -2.0f, 65504.0f}));
  std::string f64 = makeFile(
      "{\"descr\": \"<f8\", \"shape\": (1, 2), \"fortran_order\": False}",
      bytesOf<double>({0.5, -3.0}), /*major=*/2);
  ASSERT_EQ(parseNpy(f64, array), "");
  EXPECT_EQ(array.type, NpyType::F64);
  EXPECT_EQ(array.toFloat(), (std::vector<float>{0.5f, -3.0f}));
  std::string i8 =
      makeFile("{'descr': '|i1', 'fortran_order': False, 'shape': (2,), }",
               bytesOf<int8_t>({-128, 7}), /*major=*/3);
  ASSERT_EQ(parseNpy(i8, array), "");
  EXPECT_EQ(array.type, NpyType::I8);
  EXPECT_EQ(array.toFloat(), (std::vector<float>{-128.0f, 7.0f}));
}

TEST(NpyTest, MalformedFiles) {
  const std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  const std::string data = bytesOf<float>({1, 2});
  EXPECT_EQ(parseError("hello world, not numpy"),
            "not a NumPy file (bad magic)");
  std::string good = makeFile(header, data);
  EXPECT_EQ(parseError(good.substr(0, 9)),
            "truncated header: 9 bytes, the magic, version and header length "
            "need 10");
  EXPECT_EQ(parseError(good.substr(0, 40)),
            "truncated header: 118 bytes announced, 30 present");
  std::string badVersion = good;
  badVersion[6] = 4;
  EXPECT_EQ(parseError(badVersion),
            "unsupported .npy version 4.0 (expected 1.0, 2.0 or 3.0)");
  EXPECT_EQ(
      parseError(makeFile(
          "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", data)),
      "big-endian dtype '>f4' is not supported");
  EXPECT_EQ(
      parseError(makeFile(
          "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", data)),
      "unsupported dtype '<c8' (expected f2, f4, f8, i1, u1, b1, i2, i4 "
      "or i8)");
  EXPECT_EQ(
      parseError(makeFile(
          "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", data)),
      "fortran_order arrays are not supported");
  EXPECT_EQ(
      parseError(makeFile("{'descr': '<f4', 'fortran_order': False}", data)),
      "malformed header: missing 'shape'");
  EXPECT_EQ(
      parseError(makeFile(
          "{'descr': '<f4', 'fortran_order': False, 'shape': (2; 3), }", data)),
      "malformed header: expected a tuple of integers for 'shape' at "
      "offset 52");
  EXPECT_EQ(parseError(makeFile("['descr']", data)),
            "malformed header: expected '{' at offset 0");
  // Quoted text reaches messages: only printable ASCII is read.
  EXPECT_EQ(parseError(makeFile("{'descr': '<f4\n', 'fortran_order': False, "
                                "'shape': (2,), }",
                                data)),
            "malformed header: expected a string for 'descr' at offset 10");
  EXPECT_EQ(parseError(makeFile("{'descr': '<f4', 'fortran_order': False, "
                                "'sh\x93pe': (2,), }",
                                data)),
            "malformed header: expected a quoted key at offset 41");
  EXPECT_EQ(
      parseError(makeFile(
          "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", data)),
      "data holds 8 bytes but shape (3) of <f4 needs 12");
  EXPECT_EQ(parseError(makeFile(header, data + "xx")),
            "data holds 10 bytes but shape (2) of <f4 needs 8");
  // 2^61 doubles are 2^64 bytes: wrapped around, that would be 0 and match
  // an empty file.
  EXPECT_EQ(parseError(makeFile("{'descr': '<f8', 'fortran_order': False, "
                                "'shape': (2305843009213693952,), }",
                                "")),
            "shape (2305843009213693952) of <f8 overflows 64 bits");
  // A 4-byte header length (version 2.0) far beyond the file.
  std::string v2 = makeFile(header, data, /*major=*/2);
  v2[10] = '\xff';
  v2[11] = '\xff';
  EXPECT_EQ(parseError(v2),
            "truncated header: 4294901876 bytes announced, 124 present");
}

TEST(NpyTest, Header) {
  NpyHeader header;
  ASSERT_EQ(
      parseNpyHeader(
          makeFile("{'descr': '>f2', 'fortran_order': True, 'shape': (), }",
                   "tail"),
          header),
      "");
  EXPECT_EQ(header.descr, ">f2");
  EXPECT_TRUE(header.fortranOrder);
  EXPECT_TRUE(header.shape.empty());
  EXPECT_EQ(header.dataOffset, 128u);
}

TEST(NpyTest, Types) {
  NpyType type = NpyType::F64;
  EXPECT_TRUE(getNpyType("<f4", type));
  EXPECT_EQ(type, NpyType::F32);
  EXPECT_TRUE(getNpyType("=f2", type));
  EXPECT_EQ(type, NpyType::F16);
  // Byte order means nothing for one byte.
  EXPECT_TRUE(getNpyType(">i1", type));
  EXPECT_EQ(type, NpyType::I8);
  EXPECT_TRUE(getNpyType("|b1", type));
  EXPECT_EQ(type, NpyType::U8);
  for (const char *refused : {">f4", ">f2", "<c8", "|O", "f4", "", "<f4 "})
    EXPECT_FALSE(getNpyType(refused, type)) << refused;
  uint64_t bytes = 0;
  EXPECT_TRUE(getNpyDataBytes({2, 3}, NpyType::F32, bytes));
  EXPECT_EQ(bytes, 24u);
  EXPECT_TRUE(getNpyDataBytes({}, NpyType::F16, bytes));
  EXPECT_EQ(bytes, 2u);
  EXPECT_TRUE(getNpyDataBytes({0, INT64_MAX}, NpyType::F64, bytes));
  EXPECT_EQ(bytes, 0u);
  EXPECT_FALSE(getNpyDataBytes({int64_t(1) << 61}, NpyType::F64, bytes));
  EXPECT_FALSE(getNpyDataBytes({-1}, NpyType::F32, bytes));
  EXPECT_EQ(formatNpyShape({2, 3}), "(2, 3)");
  EXPECT_EQ(formatNpyShape({}), "()");
}

TEST(NpyTest, FilesNameThePath) {
  NpyArray array;
  EXPECT_EQ(readNpy("/nonexistent/q.npy", array),
            "/nonexistent/q.npy: cannot open: No such file or directory");
  char path[] = "/tmp/sage-npy-test-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  NpyArray written = makeF32Array({2, 2}, {1, 2, 3, 4});
  ASSERT_EQ(writeNpy(path, written), "");
  ASSERT_EQ(readNpy(path, array), "");
  EXPECT_EQ(array.shape, written.shape);
  EXPECT_EQ(array.data, written.data);
  FILE *file = std::fopen(path, "wb");
  ASSERT_NE(file, nullptr);
  std::fputs("garbage", file);
  std::fclose(file);
  EXPECT_EQ(readNpy(path, array),
            std::string(path) + ": not a NumPy file (bad magic)");
  std::remove(path);
}
