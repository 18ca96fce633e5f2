//===- IrMutator.cpp - structure-aware mutations of MLIR text -------------===//

#include "IrMutator.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {
/// Groups of spellings that can stand for one another in valid IR.
const std::vector<std::vector<std::string>> kInterchangeable = {
    {"f16", "bf16", "f32", "f64", "i1", "i8", "i4", "i32", "index", "f8E4M3FN",
     "f8E5M2", "f4E2M1FN"},
    {"linalg.matmul", "linalg.batch_matmul"},
    {"arith.mulf", "arith.divf", "arith.addf", "arith.subf", "arith.maximumf",
     "arith.maxnumf"},
    {"math.exp", "math.exp2", "math.tanh"},
    {"arith.extf", "arith.truncf"},
    {"parallel", "reduction"},
    {"per_thread", "per_warp", "per_block", "per_token", "per_tensor",
     "per_channel", "microscale"},
    {"int8-fp8", "int4-fp8", "int8-fp8-f16acc", "int4-fp8-f16acc", "nvfp4",
     "int8-fp16", "int8-fp16-f16acc"},
    {"batch", "heads", "tokens", "features"},
    {"operand = a", "operand = b"},
    {"registers", "shared", "tensor_memory"},
    {"warp", "warpgroup", "tcgen05"},
    {"natural", "accumulator"},
    {"chunks = 1", "chunks = 2"},
};
const char *const kDims[] = {"?",  "0",  "1",  "2",   "3",  "7",
                             "8",  "16", "31", "32",  "48", "63",
                             "64", "65", "96", "128", "256"};
const char *const kNumbers[] = {
    "0",          "1",  "-1", "2",   "0.125", "0.0",   "1.0e+30", "-1.0e+30",
    "0xFF800000", "64", "65", "127", "128",   "448.0", "1000000", "-65504.0"};

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '-';
}

class Mutator {
public:
  Mutator(std::string text, unsigned seed) : text(std::move(text)), rng(seed) {}

  /// Applies one random mutation; false if it found nothing to change.
  bool mutate() {
    switch (pick(7)) {
    case 0:
      return mutateDimension();
    case 1:
    case 2:
      return mutateSpelling();
    case 3:
      return mutateNumber();
    case 4:
      return mutateAffineResult();
    case 5:
      return mutateLines();
    default:
      return mutateSpelling();
    }
  }

  std::string text;

private:
  size_t pick(size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  }

  /// Start offsets of whole-word occurrences of `word`.
  std::vector<size_t> find(const std::string &word) const {
    std::vector<size_t> hits;
    for (size_t at = text.find(word); at != std::string::npos;
         at = text.find(word, at + 1)) {
      bool startsWord = at == 0 || !isWordChar(text[at - 1]);
      size_t end = at + word.size();
      bool endsWord =
          end >= text.size() || !isWordChar(text[end]) || word.back() == ' ';
      if (startsWord && endsWord)
        hits.push_back(at);
    }
    return hits;
  }

  /// One dimension of a tensor<...>, memref<...> or vector<...>.
  bool mutateDimension() {
    std::vector<std::pair<size_t, size_t>> dims;
    for (const char *kind : {"tensor<", "memref<", "vector<"})
      for (size_t at = text.find(kind); at != std::string::npos;
           at = text.find(kind, at + 1)) {
        size_t i = at + std::strlen(kind);
        while (i < text.size() && text[i] != '>') {
          size_t start = i;
          while (i < text.size() &&
                 (std::isdigit(static_cast<unsigned char>(text[i])) ||
                  text[i] == '?'))
            ++i;
          if (i > start && i < text.size() && text[i] == 'x')
            dims.push_back({start, i - start});
          if (i == start)
            ++i;
        }
      }
    if (dims.empty())
      return false;
    auto [start, length] = dims[pick(dims.size())];
    text.replace(start, length, kDims[pick(std::size(kDims))]);
    return true;
  }

  /// An op name, type, enum or keyword into another of its group.
  bool mutateSpelling() {
    const auto &group = kInterchangeable[pick(kInterchangeable.size())];
    std::vector<std::pair<size_t, size_t>> hits;
    for (const std::string &word : group)
      for (size_t at : find(word))
        hits.push_back({at, word.size()});
    if (hits.empty())
      return false;
    auto [start, length] = hits[pick(hits.size())];
    text.replace(start, length, group[pick(group.size())]);
    return true;
  }

  /// A numeric literal after '=', ',', '[', '(' or ' '.
  bool mutateNumber() {
    std::vector<std::pair<size_t, size_t>> numbers;
    for (size_t i = 1; i < text.size(); ++i) {
      char prev = text[i - 1];
      bool digit = std::isdigit(static_cast<unsigned char>(text[i])) ||
                   (text[i] == '-' && i + 1 < text.size() &&
                    std::isdigit(static_cast<unsigned char>(text[i + 1])));
      if (!digit || !(prev == '=' || prev == ',' || prev == '[' ||
                      prev == '(' || prev == ' '))
        continue;
      size_t end = i + 1;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) ||
              text[end] == '.' || text[end] == '+' || text[end] == '-'))
        ++end;
      numbers.push_back({i, end - i});
      i = end;
    }
    if (numbers.empty())
      return false;
    auto [start, length] = numbers[pick(numbers.size())];
    text.replace(start, length, kNumbers[pick(std::size(kNumbers))]);
    return true;
  }

  /// One result dimension of an affine_map into another loop dimension:
  /// the maps are what the matchers read roles from.
  bool mutateAffineResult() {
    std::vector<size_t> maps;
    for (size_t at = text.find("affine_map<"); at != std::string::npos;
         at = text.find("affine_map<", at + 1))
      maps.push_back(at);
    if (maps.empty())
      return false;
    size_t at = maps[pick(maps.size())];
    size_t arrow = text.find("->", at);
    size_t end = text.find('>', arrow == std::string::npos ? at : arrow + 2);
    if (arrow == std::string::npos || end == std::string::npos)
      return false;
    std::vector<size_t> names;
    for (size_t i = arrow; i < end; ++i)
      if (std::isalpha(static_cast<unsigned char>(text[i])) &&
          !isWordChar(text[i - 1]))
        names.push_back(i);
    if (names.size() < 2)
      return false;
    size_t a = names[pick(names.size())], b = names[pick(names.size())];
    auto wordEnd = [&](size_t i) {
      while (i < text.size() && isWordChar(text[i]) && text[i] != '.')
        ++i;
      return i;
    };
    std::string first = text.substr(a, wordEnd(a) - a);
    std::string second = text.substr(b, wordEnd(b) - b);
    if (a > b) {
      std::swap(a, b);
      std::swap(first, second);
    }
    text.replace(b, second.size(), first);
    text.replace(a, first.size(), second);
    return true;
  }

  /// Drop, duplicate or swap whole lines (ops).
  bool mutateLines() {
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t at; (at = text.find('\n', start)) != std::string::npos;
         start = at + 1)
      lines.push_back(text.substr(start, at - start + 1));
    if (start < text.size())
      lines.push_back(text.substr(start));
    if (lines.size() < 2)
      return false;
    size_t i = pick(lines.size()), j = pick(lines.size());
    switch (pick(3)) {
    case 0:
      lines.erase(lines.begin() + i);
      break;
    case 1:
      lines.insert(lines.begin() + i, lines[j]);
      break;
    default:
      std::swap(lines[i], lines[j]);
    }
    text.clear();
    for (const std::string &line : lines)
      text += line;
    return true;
  }

  std::mt19937 rng;
};
} // namespace

size_t mlir::sage::fuzz::mutateIr(uint8_t *data, size_t size, size_t maxSize,
                                  unsigned seed) {
  Mutator mutator(std::string(reinterpret_cast<char *>(data), size), seed);
  // One in five mutations stays byte-level, to reach the parser's corners.
  if (seed % 5 != 0 && mutator.mutate() && mutator.text.size() <= maxSize) {
    std::memcpy(data, mutator.text.data(), mutator.text.size());
    return mutator.text.size();
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}
