//===- Plan.cpp - Parsing and validation of launch plans ------------------===//
//
// nlohmann-json parses the text without exceptions (a syntax error gives a
// discarded value; a SAX pass then recovers the message and position);
// every field is then checked for presence and type before it is read, so
// a malformed plan is a one-line error, never an abort.
//
//===----------------------------------------------------------------------===//

#include "sage/Runtime/Plan.h"

#include "sage/Runtime/JsonSchema.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

using namespace sage::rt;
using json = nlohmann::json;

size_t sage::rt::elementSize(ElementType type) {
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16:
    return 2;
  case ElementType::F32:
  case ElementType::I32:
    return 4;
  case ElementType::I8:
  case ElementType::F8E4M3FN:
  case ElementType::I1:
    return 1;
  }
  return 1;
}

const char *sage::rt::toString(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F32:
    return "f32";
  case ElementType::I8:
    return "i8";
  case ElementType::F8E4M3FN:
    return "f8E4M3FN";
  case ElementType::I32:
    return "i32";
  case ElementType::I1:
    return "i1";
  }
  return "?";
}

bool sage::rt::parseElementType(std::string_view text, ElementType &type) {
  static const ElementType kAll[] = {ElementType::F16,      ElementType::BF16,
                                     ElementType::F32,      ElementType::I8,
                                     ElementType::F8E4M3FN, ElementType::I32,
                                     ElementType::I1};
  for (ElementType candidate : kAll)
    if (text == toString(candidate)) {
      type = candidate;
      return true;
    }
  return false;
}

const char *sage::rt::toString(BufferKind kind) {
  switch (kind) {
  case BufferKind::Input:
    return "input";
  case BufferKind::Output:
    return "output";
  case BufferKind::Workspace:
    return "workspace";
  }
  return "?";
}

const char *sage::rt::toString(DimRole role) {
  switch (role) {
  case DimRole::Batch:
    return "batch";
  case DimRole::Heads:
    return "heads";
  case DimRole::Tokens:
    return "tokens";
  case DimRole::Features:
    return "features";
  }
  return "?";
}

int LaunchPlan::findBuffer(std::string_view bufferName) const {
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].name == bufferName)
      return static_cast<int>(i);
  return -1;
}

//===----------------------------------------------------------------------===//
// Field readers
//===----------------------------------------------------------------------===//

/// Describes the JSON type of \p value for "got ..." messages.
static std::string describe(const json &value) {
  switch (value.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::boolean:
    return "boolean";
  case json::value_t::number_integer:
  case json::value_t::number_unsigned:
  case json::value_t::number_float:
    return "number " + value.dump();
  case json::value_t::string:
    return "string " + value.dump();
  case json::value_t::array:
    return "array";
  case json::value_t::object:
    return "object";
  default:
    return "an invalid value";
  }
}

/// Returns "field 'PATH': WHAT".
static std::string fieldError(const std::string &path,
                              const std::string &what) {
  return "field '" + path + "': " + what;
}

/// Returns "PARENT.KEY" (or KEY at the top level).
static std::string childPath(const std::string &parent, const char *key) {
  return parent.empty() ? std::string(key) : parent + "." + key;
}

/// Returns "PARENT[INDEX]".
static std::string indexPath(const std::string &parent, size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

namespace {
/// Reads typed fields of JSON objects, recording the first error.
class FieldReader {
public:
  /// The first error, empty while none occurred.
  std::string error;

  bool ok() const { return error.empty(); }

  /// Returns field \p key of \p object, or null (recording an error) if it
  /// is missing.
  const json *member(const json &object, const std::string &path,
                     const char *key) {
    if (!ok())
      return nullptr;
    auto it = object.find(key);
    if (it == object.end()) {
      fail(childPath(path, key), "missing");
      return nullptr;
    }
    return &*it;
  }

  void fail(const std::string &path, const std::string &what) {
    if (ok())
      error = fieldError(path, what);
  }

  bool readString(const json &object, const std::string &path, const char *key,
                  std::string &out) {
    const json *value = member(object, path, key);
    if (!value)
      return false;
    if (!value->is_string()) {
      fail(childPath(path, key), "expected a string, got " + describe(*value));
      return false;
    }
    out = value->get<std::string>();
    return true;
  }

  bool readBool(const json &object, const std::string &path, const char *key,
                bool &out) {
    const json *value = member(object, path, key);
    if (!value)
      return false;
    if (!value->is_boolean()) {
      fail(childPath(path, key), "expected a boolean, got " + describe(*value));
      return false;
    }
    out = value->get<bool>();
    return true;
  }

  /// Reads an integer >= \p minimum.
  bool readInt(const json &object, const std::string &path, const char *key,
               int64_t minimum, int64_t &out) {
    const json *value = member(object, path, key);
    if (!value)
      return false;
    return readIntValue(*value, childPath(path, key), minimum, out);
  }

  bool readIntValue(const json &value, const std::string &path, int64_t minimum,
                    int64_t &out) {
    std::string expected = minimum == 0 ? "a non-negative integer"
                           : minimum == 1
                               ? "a positive integer"
                               : "an integer >= " + std::to_string(minimum);
    bool isInt = value.is_number_integer() &&
                 !(value.is_number_unsigned() &&
                   value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX));
    if (!isInt || value.get<int64_t>() < minimum) {
      fail(path, "expected " + expected + ", got " + describe(value));
      return false;
    }
    out = value.get<int64_t>();
    return true;
  }

  bool readNumber(const json &object, const std::string &path, const char *key,
                  double &out) {
    const json *value = member(object, path, key);
    if (!value)
      return false;
    if (!value->is_number()) {
      fail(childPath(path, key), "expected a number, got " + describe(*value));
      return false;
    }
    out = value->get<double>();
    return true;
  }

  /// Reads an object field.
  const json *readObject(const json &object, const std::string &path,
                         const char *key) {
    const json *value = member(object, path, key);
    if (!value)
      return nullptr;
    if (!value->is_object()) {
      fail(childPath(path, key), "expected an object, got " + describe(*value));
      return nullptr;
    }
    return value;
  }

  /// Reads an array field.
  const json *readArray(const json &object, const std::string &path,
                        const char *key) {
    const json *value = member(object, path, key);
    if (!value)
      return nullptr;
    if (!value->is_array()) {
      fail(childPath(path, key), "expected an array, got " + describe(*value));
      return nullptr;
    }
    return value;
  }

  /// Reads a size (docs/LaunchPlan.md): a non-negative integer, a size
  /// name, or {"cdiv": [a, b]} / {"mul": [a, b]} of two sizes.
  bool readExprValue(const json &value, const std::string &path,
                     SizeExpr &out) {
    if (!ok())
      return false;
    if (value.is_string()) {
      std::string name = value.get<std::string>();
      std::optional<SizeExpr> symbol = SizeExpr::symbol(name);
      if (!symbol) {
        fail(path, "unknown size '" + name + "'; expected B, H, Hkv, Nq or Nk");
        return false;
      }
      out = *symbol;
      return true;
    }
    if (value.is_object() && value.size() == 1 &&
        (value.contains("cdiv") || value.contains("mul"))) {
      bool isCeilDiv = value.contains("cdiv");
      const char *key = isCeilDiv ? "cdiv" : "mul";
      std::string operandsPath = childPath(path, key);
      const json &operands = value.at(key);
      if (!operands.is_array() || operands.size() != 2) {
        fail(operandsPath, "expected [size, size], got " + describe(operands));
        return false;
      }
      SizeExpr lhs, rhs;
      if (!readExprValue(operands[0], indexPath(operandsPath, 0), lhs) ||
          !readExprValue(operands[1], indexPath(operandsPath, 1), rhs))
        return false;
      out = isCeilDiv ? SizeExpr::ceilDiv(lhs, rhs) : SizeExpr::mul(lhs, rhs);
      return true;
    }
    int64_t constant = 0;
    if (!value.is_number_integer()) {
      fail(path, "expected a size (a non-negative integer, a size name, "
                 "{\"cdiv\": [a, b]} or {\"mul\": [a, b]}), got " +
                     describe(value));
      return false;
    }
    if (!readIntValue(value, path, 0, constant))
      return false;
    out = SizeExpr::constant(constant);
    return true;
  }

  bool readExpr(const json &object, const std::string &path, const char *key,
                SizeExpr &out) {
    const json *value = member(object, path, key);
    return value && readExprValue(*value, childPath(path, key), out);
  }

  /// Reads an array of exactly three size expressions.
  bool readDim3(const json &object, const std::string &path, const char *key,
                std::array<SizeExpr, 3> &out) {
    const json *array = readArray(object, path, key);
    if (!array)
      return false;
    std::string arrayPath = childPath(path, key);
    if (array->size() != 3) {
      fail(arrayPath,
           "expected 3 extents, got " + std::to_string(array->size()));
      return false;
    }
    for (size_t i = 0; i < 3; ++i)
      if (!readExprValue((*array)[i], indexPath(arrayPath, i), out[i]))
        return false;
    return true;
  }

  /// Reads a type name.
  bool readType(const json &object, const std::string &path, const char *key,
                ElementType &out) {
    std::string text;
    if (!readString(object, path, key, text))
      return false;
    if (!parseElementType(text, out)) {
      fail(childPath(path, key),
           "unknown type '" + text +
               "' (expected f16, bf16, f32, i8, f8E4M3FN, i32 or i1)");
      return false;
    }
    return true;
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Sections
//===----------------------------------------------------------------------===//

/// Parses "sm_NN" with an optional 'a' or 'f' suffix.
static bool parseChip(const std::string &chip, int &version,
                      bool &archSpecific) {
  if (chip.size() < 5 || chip.compare(0, 3, "sm_") != 0)
    return false;
  size_t pos = 3;
  int value = 0;
  while (pos < chip.size() && chip[pos] >= '0' && chip[pos] <= '9' &&
         value < 10000)
    value = value * 10 + (chip[pos++] - '0');
  if (pos - 3 < 2)
    return false;
  archSpecific = false;
  if (pos < chip.size() && (chip[pos] == 'a' || chip[pos] == 'f')) {
    archSpecific = chip[pos] == 'a';
    ++pos;
  }
  version = value;
  return pos == chip.size();
}

static void readLayout(FieldReader &reader, const json &root,
                       LaunchPlan &plan) {
  const json *layout = reader.readArray(root, "", "layout");
  if (!layout)
    return;
  static const DimRole kRoles[] = {DimRole::Batch, DimRole::Heads,
                                   DimRole::Tokens, DimRole::Features};
  std::string spelled = "[";
  for (size_t i = 0; i < layout->size(); ++i) {
    const json &entry = (*layout)[i];
    if (!entry.is_string()) {
      reader.fail(indexPath("layout", i),
                  "expected a dimension name, got " + describe(entry));
      return;
    }
    std::string name = entry.get<std::string>();
    spelled += (i ? ", " : "") + name;
    bool known = false;
    for (DimRole role : kRoles)
      if (name == toString(role)) {
        plan.layout.push_back(role);
        known = true;
      }
    if (!known) {
      reader.fail(indexPath("layout", i),
                  "unknown dimension '" + name +
                      "' (expected batch, heads, tokens or features)");
      return;
    }
  }
  spelled += "]";
  std::set<DimRole> distinct(plan.layout.begin(), plan.layout.end());
  bool hasHeads = distinct.count(DimRole::Heads) != 0;
  if (distinct.size() != plan.layout.size() ||
      plan.layout.size() != (hasHeads ? 4u : 3u))
    reader.fail("layout", "expected a permutation of [batch, heads, tokens, "
                          "features] or [batch, tokens, features], got " +
                              spelled);
}

static void readBuffer(FieldReader &reader, const json &entry,
                       const std::string &path, PlanBuffer &buffer) {
  if (!entry.is_object()) {
    reader.fail(path, "expected an object, got " + describe(entry));
    return;
  }
  std::string kind;
  reader.readString(entry, path, "name", buffer.name);
  if (reader.ok() && buffer.name.empty())
    reader.fail(childPath(path, "name"), "expected a non-empty name");
  if (!reader.readString(entry, path, "kind", kind))
    return;
  if (kind == "input")
    buffer.kind = BufferKind::Input;
  else if (kind == "output")
    buffer.kind = BufferKind::Output;
  else if (kind == "workspace")
    buffer.kind = BufferKind::Workspace;
  else
    return reader.fail(childPath(path, "kind"),
                       "unknown kind '" + kind +
                           "' (expected input, output or workspace)");
  reader.readType(entry, path, "type", buffer.type);
  const json *shape = reader.readArray(entry, path, "shape");
  if (!shape)
    return;
  std::string shapePath = childPath(path, "shape");
  buffer.shape.resize(shape->size());
  for (size_t i = 0; i < shape->size(); ++i)
    if (!reader.readExprValue((*shape)[i], indexPath(shapePath, i),
                              buffer.shape[i]))
      return;
  auto init = entry.find("init");
  if (init == entry.end())
    return;
  std::string initPath = childPath(path, "init");
  if (!init->is_string() || init->get<std::string>() != "zero")
    reader.fail(initPath, "expected \"zero\", got " + describe(*init));
  else
    buffer.zeroInit = true;
}

/// Checks the mask input: an i1 keep-mask or an additive f16, bf16 or f32
/// one, shaped [B or 1, H or 1, Nq, Nk] ([B or 1, Nq, Nk] without heads),
/// whatever the layout: an extent of 1 broadcasts.
static void checkMask(FieldReader &reader, const LaunchPlan &plan,
                      const PlanBuffer &mask, const std::string &path) {
  if (mask.type != ElementType::I1 && mask.type != ElementType::F16 &&
      mask.type != ElementType::BF16 && mask.type != ElementType::F32)
    return reader.fail(childPath(path, "type"),
                       std::string("buffer 'mask' has type ") +
                           toString(mask.type) +
                           " (expected i1, f16, bf16 or f32)");
  // Each dimension: the symbol it may be, and whether it may be 1.
  std::vector<std::pair<const char *, bool>> form = {{"B", true}};
  if (plan.hasHeads())
    form.push_back({"H", true});
  form.push_back({"Nq", false});
  form.push_back({"Nk", false});
  std::string expected =
      plan.hasHeads() ? "[B or 1, H or 1, Nq, Nk]" : "[B or 1, Nq, Nk]";
  std::string shapePath = childPath(path, "shape");
  if (mask.shape.size() != form.size())
    return reader.fail(
        shapePath, "buffer 'mask' has " + std::to_string(mask.shape.size()) +
                       " dimensions, expected " + expected +
                       (plan.hasHeads() ? " (the layout has heads)"
                                        : " (the layout has no heads)"));
  for (size_t i = 0; i < form.size(); ++i) {
    const auto &[symbol, broadcast] = form[i];
    const SizeExpr &extent = mask.shape[i];
    if (extent.isSymbol(symbol) || (broadcast && extent.isLiteral(1)))
      continue;
    return reader.fail(
        indexPath(shapePath, i),
        "buffer 'mask' has extent '" + extent.text() + "', expected " + symbol +
            (broadcast ? " or 1" : "") + " (the mask is " + expected + ")");
  }
}

/// Checks the roles of the buffers: q, k, v inputs with the input type, an
/// o output with the output type, an optional f32 lse, an optional mask.
static void checkBufferRoles(FieldReader &reader, const LaunchPlan &plan) {
  for (size_t i = 0; i < plan.buffers.size() && reader.ok(); ++i) {
    const PlanBuffer &buffer = plan.buffers[i];
    std::string path = indexPath("buffers", i);
    for (size_t j = 0; j < i; ++j)
      if (plan.buffers[j].name == buffer.name)
        return reader.fail(childPath(path, "name"),
                           "duplicate buffer '" + buffer.name + "'");
    const std::string &name = buffer.name;
    ElementType expected = buffer.type;
    const char *typeSource = nullptr;
    if (buffer.kind == BufferKind::Input) {
      if (name != "q" && name != "k" && name != "v" && name != "mask")
        return reader.fail(childPath(path, "name"),
                           "unknown input buffer '" + name +
                               "' (expected q, k, v or mask)");
      if (name == "mask") {
        checkMask(reader, plan, buffer, path);
        continue;
      }
      expected = plan.inputType;
      typeSource = "input_type";
    } else if (buffer.kind == BufferKind::Output) {
      if (name != "o" && name != "lse")
        return reader.fail(childPath(path, "name"),
                           "unknown output buffer '" + name +
                               "' (expected o or lse)");
      expected = name == "o" ? plan.outputType : ElementType::F32;
      typeSource = name == "o" ? "output_type" : "the lse type";
    } else if (name == "q" || name == "k" || name == "v" || name == "o" ||
               name == "lse" || name == "mask") {
      return reader.fail(
          childPath(path, "kind"),
          "buffer '" + name + "' must be an " +
              (name == "o" || name == "lse" ? "output" : "input") +
              ", got workspace");
    }
    if (buffer.type != expected)
      return reader.fail(childPath(path, "type"),
                         "buffer '" + name + "' has type " +
                             toString(buffer.type) + " but " + typeSource +
                             " is " + toString(expected));
  }
  for (const char *required : {"q", "k", "v", "o"})
    if (reader.ok() && plan.findBuffer(required) < 0)
      reader.fail("buffers", std::string("missing the ") +
                                 (required[0] == 'o' ? "output" : "input") +
                                 " buffer '" + required + "'");
}

static void readKernel(FieldReader &reader, const json &entry,
                       const std::string &path, const LaunchPlan &plan,
                       PlanKernel &kernel) {
  if (!entry.is_object())
    return reader.fail(path, "expected an object, got " + describe(entry));
  if (reader.readString(entry, path, "name", kernel.name) &&
      kernel.name.empty())
    return reader.fail(childPath(path, "name"), "expected a non-empty name");
  reader.readDim3(entry, path, "grid", kernel.grid);
  reader.readDim3(entry, path, "block", kernel.block);
  reader.readExpr(entry, path, "shared_bytes", kernel.sharedBytes);
  const json *params = reader.readArray(entry, path, "params");
  if (!params)
    return;
  std::string paramsPath = childPath(path, "params");
  for (size_t i = 0; i < params->size() && reader.ok(); ++i) {
    const json &param = (*params)[i];
    std::string paramPath = indexPath(paramsPath, i);
    if (!param.is_object() || param.size() != 1)
      return reader.fail(
          paramPath,
          "expected {\"buffer\": NAME} or {\"i32\": EXPR}, "
          "got " +
              (param.is_object()
                   ? "an object with " + std::to_string(param.size()) + " keys"
                   : describe(param)));
    PlanParam out;
    if (param.contains("buffer")) {
      out.kind = PlanParam::Kind::Buffer;
      std::string name;
      if (!reader.readString(param, paramPath, "buffer", name))
        return;
      out.buffer = plan.findBuffer(name);
      if (out.buffer < 0)
        return reader.fail(childPath(paramPath, "buffer"),
                           "unknown buffer '" + name + "'");
    } else if (param.contains("i32")) {
      out.kind = PlanParam::Kind::I32;
      if (!reader.readExpr(param, paramPath, "i32", out.value))
        return;
    } else {
      return reader.fail(paramPath, "unknown parameter kind '" +
                                        param.begin().key() +
                                        "' (expected buffer or i32)");
    }
    kernel.params.push_back(std::move(out));
  }
}

/// Recovers the message of a JSON syntax error.
static std::string syntaxError(std::string_view text) {
  struct Catcher : nlohmann::json_sax<json> {
    std::string message;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t &) override {
      return true;
    }
    bool string(string_t &) override { return true; }
    bool binary(binary_t &) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t &) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string &,
                     const nlohmann::detail::exception &ex) override {
      message = ex.what();
      return false;
    }
  } catcher;
  json::sax_parse(text.begin(), text.end(), &catcher);
  std::string message = catcher.message;
  // Drop the "[json.exception.parse_error.101] " prefix.
  size_t bracket = message.find("] ");
  if (!message.empty() && message[0] == '[' && bracket != std::string::npos)
    message = message.substr(bracket + 2);
  if (message.empty())
    message = "syntax error";
  return "invalid JSON: " + message;
}

std::string sage::rt::parsePlan(std::string_view text, LaunchPlan &result) {
  json root = json::parse(text.begin(), text.end(), nullptr,
                          /*allow_exceptions=*/false);
  if (root.is_discarded())
    return syntaxError(text);
  if (!root.is_object())
    return "expected a JSON object at the top level, got " + describe(root);
  FieldReader reader;
  LaunchPlan plan;
  std::string format;
  if (reader.readString(root, "", "format", format) &&
      format != "sage-launch-plan")
    reader.fail("format",
                "expected \"sage-launch-plan\", got \"" + format + "\"");
  int64_t version = 0;
  if (reader.readInt(root, "", "version", 0, version) && version != 2)
    reader.fail("version",
                "expected 2, got " + std::to_string(version) +
                    (version == 1 ? " (version 1 spelled sizes as strings; "
                                    "compile the plan again with this sage)"
                                  : ""));
  reader.readString(root, "", "name", plan.name);
  reader.readString(root, "", "ptx", plan.ptx);
  if (reader.readString(root, "", "chip", plan.chip) &&
      !parseChip(plan.chip, plan.smVersion, plan.archSpecific))
    reader.fail("chip", "expected sm_<NN> with an optional 'a' or 'f', got '" +
                            plan.chip + "'");
  reader.readString(root, "", "variant", plan.variant);
  readLayout(reader, root, plan);
  reader.readInt(root, "", "head_dim", 1, plan.headDim);
  reader.readInt(root, "", "value_dim", 1, plan.valueDim);
  reader.readType(root, "", "input_type", plan.inputType);
  reader.readType(root, "", "output_type", plan.outputType);
  bool causal = false;
  reader.readBool(root, "", "causal", causal);
  std::string alignment = "bottom_right";
  if (root.contains("causal_alignment") &&
      reader.readString(root, "", "causal_alignment", alignment) &&
      alignment != "bottom_right" && alignment != "top_left")
    reader.fail("causal_alignment",
                "expected \"bottom_right\" or \"top_left\", got \"" +
                    alignment + "\"");
  if (causal)
    plan.causal = alignment == "top_left" ? sage::ref::Causal::TopLeft
                                          : sage::ref::Causal::BottomRight;
  if (reader.readNumber(root, "", "scale", plan.scale) &&
      !(plan.scale >= 0.0 && std::isfinite(plan.scale)))
    reader.fail("scale",
                "expected a non-negative number, got " + root["scale"].dump());
  if (root.contains("qk_granularity")) {
    std::string granularity;
    if (reader.readString(root, "", "qk_granularity", granularity))
      plan.queryKeyGranularity =
          granularity == "per_block"    ? sage::ref::Granularity::PerBlock
          : granularity == "per_warp"   ? sage::ref::Granularity::PerWarp
          : granularity == "per_token"  ? sage::ref::Granularity::PerToken
          : granularity == "microscale" ? sage::ref::Granularity::Microscale
                                        : sage::ref::Granularity::PerThread;
  }
  if (root.contains("f16_flush_every")) {
    int64_t every = 0;
    if (reader.readInt(root, "", "f16_flush_every", 1, every))
      plan.f16FlushEvery = every;
  }
  if (root.contains("ranges"))
    if (const json *ranges = reader.readObject(root, "", "ranges")) {
      double p = 0, v = 0;
      if (reader.readNumber(*ranges, "ranges", "p", p))
        plan.probRange = p;
      if (reader.readNumber(*ranges, "ranges", "v", v))
        plan.valueRange = v;
    }
  if (const json *smooth = reader.readObject(root, "", "smooth")) {
    reader.readBool(*smooth, "smooth", "q", plan.smooth.q);
    reader.readBool(*smooth, "smooth", "k", plan.smooth.k);
    reader.readBool(*smooth, "smooth", "v", plan.smooth.v);
  }
  if (const json *tiles = reader.readObject(root, "", "tiles")) {
    reader.readInt(*tiles, "tiles", "block_q", 1, plan.tiles.blockQ);
    reader.readInt(*tiles, "tiles", "warp_q", 1, plan.tiles.warpQ);
    reader.readInt(*tiles, "tiles", "block_k", 1, plan.tiles.blockK);
    reader.readInt(*tiles, "tiles", "warps", 1, plan.tiles.warps);
  }
  if (const json *buffers = reader.readArray(root, "", "buffers")) {
    plan.buffers.resize(buffers->size());
    for (size_t i = 0; i < buffers->size() && reader.ok(); ++i)
      readBuffer(reader, (*buffers)[i], indexPath("buffers", i),
                 plan.buffers[i]);
    checkBufferRoles(reader, plan);
  }
  if (const json *kernels = reader.readArray(root, "", "kernels")) {
    if (kernels->empty())
      reader.fail("kernels", "expected at least one kernel");
    plan.kernels.resize(kernels->size());
    for (size_t i = 0; i < kernels->size() && reader.ok(); ++i)
      readKernel(reader, (*kernels)[i], indexPath("kernels", i), plan,
                 plan.kernels[i]);
  }
  if (!reader.ok())
    return reader.error;
  // The reader's messages name what it needs; the schema (the one the docs
  // come from) also catches what it does not read, such as unknown fields.
  std::string violation = validateJsonSchema(getPlanSchema(), root);
  if (!violation.empty())
    return violation;
  result = std::move(plan);
  return std::string();
}

std::string sage::rt::readFileBytes(const std::string &path,
                                    std::string &contents, bool &opened) {
  // stdio rather than a stream: a directory opens but fails to read, and
  // only ferror / errno tell that from an empty file.
  std::FILE *file = std::fopen(path.c_str(), "rb");
  opened = file != nullptr;
  if (!file)
    return std::strerror(errno);
  std::string bytes;
  char chunk[1 << 16];
  size_t count = 0;
  while ((count = std::fread(chunk, 1, sizeof(chunk), file)) > 0)
    bytes.append(chunk, count);
  int error = std::ferror(file) ? errno : 0;
  std::fclose(file);
  if (error)
    return std::strerror(error);
  contents = std::move(bytes);
  return std::string();
}

std::string sage::rt::readFile(const std::string &path, std::string &contents) {
  bool opened = false;
  std::string reason = readFileBytes(path, contents, opened);
  if (!reason.empty())
    return "cannot read '" + path + "': " + reason;
  return std::string();
}

std::string sage::rt::loadPlanFile(const std::string &path, LaunchPlan &plan) {
  std::string text;
  std::string error = readFile(path, text);
  if (!error.empty())
    return error;
  error = parsePlan(text, plan);
  if (!error.empty())
    return path + ": " + error;
  return std::string();
}
