//===- JsonSchema.cpp - Validation against a JSON Schema ------------------===//

#include "sage/Runtime/JsonSchema.h"

#include <set>

using namespace sage::rt;
using json = nlohmann::json;

namespace {
class Validator {
public:
  explicit Validator(const json &root) : root(root) {}

  /// Returns "" or the first violation of \p schema by \p value at \p path.
  std::string check(const json &schema, const json &value,
                    const std::string &path) const {
    if (!schema.is_object())
      return fail(path, "the schema is not an object");
    static const std::set<std::string> kAnnotations = {
        "description", "title", "$schema", "$id", "$defs", "$comment"};
    for (auto it = schema.begin(); it != schema.end(); ++it) {
      const std::string &keyword = it.key();
      if (kAnnotations.count(keyword))
        continue;
      std::string error = checkKeyword(keyword, *it, schema, value, path);
      if (!error.empty())
        return error;
    }
    return std::string();
  }

private:
  static std::string fail(const std::string &path, const std::string &what) {
    return "field '" + (path.empty() ? std::string("(plan)") : path) +
           "': " + what;
  }

  static std::string child(const std::string &path, const std::string &key) {
    return path.empty() ? key : path + "." + key;
  }

  static bool hasType(const json &value, const std::string &type) {
    if (type == "object")
      return value.is_object();
    if (type == "array")
      return value.is_array();
    if (type == "string")
      return value.is_string();
    if (type == "integer")
      return value.is_number_integer();
    if (type == "number")
      return value.is_number();
    if (type == "boolean")
      return value.is_boolean();
    return type == "null" && value.is_null();
  }

  std::string checkKeyword(const std::string &keyword, const json &argument,
                           const json &schema, const json &value,
                           const std::string &path) const {
    if (keyword == "type") {
      if (!argument.is_string())
        return fail(path, "the schema's type is not a string");
      if (!hasType(value, argument.get<std::string>()))
        return fail(path, "expected " + argument.get<std::string>() + ", got " +
                              value.dump());
      return std::string();
    }
    if (keyword == "const")
      return value == argument ? std::string()
                               : fail(path, "expected " + argument.dump() +
                                                ", got " + value.dump());
    if (keyword == "enum") {
      if (!argument.is_array())
        return fail(path, "the schema's enum is not an array");
      for (const json &option : argument)
        if (value == option)
          return std::string();
      return fail(path, "expected one of " + argument.dump() + ", got " +
                            value.dump());
    }
    if (keyword == "minimum")
      return !argument.is_number()
                 ? fail(path, "the schema's minimum is not a number")
             : !value.is_number() ||
                     value.get<double>() >= argument.get<double>()
                 ? std::string()
                 : fail(path, "expected at least " + argument.dump() +
                                  ", got " + value.dump());
    if (keyword == "exclusiveMinimum")
      return !argument.is_number()
                 ? fail(path, "the schema's exclusiveMinimum is not a number")
             : !value.is_number() ||
                     value.get<double>() > argument.get<double>()
                 ? std::string()
                 : fail(path, "expected more than " + argument.dump() +
                                  ", got " + value.dump());
    if ((keyword == "minLength" || keyword == "minItems" ||
         keyword == "maxItems") &&
        !argument.is_number_unsigned())
      return fail(path,
                  "the schema's " + keyword + " is not a non-negative integer");
    if (keyword == "minLength")
      return !value.is_string() ||
                     value.get<std::string>().size() >= argument.get<size_t>()
                 ? std::string()
                 : fail(path, "expected at least " + argument.dump() +
                                  " characters, got " + value.dump());
    if (keyword == "minItems" || keyword == "maxItems") {
      if (!value.is_array())
        return std::string();
      size_t bound = argument.get<size_t>();
      bool ok =
          keyword == "minItems" ? value.size() >= bound : value.size() <= bound;
      return ok ? std::string()
                : fail(path,
                       std::string("expected ") +
                           (keyword == "minItems" ? "at least " : "at most ") +
                           std::to_string(bound) + " items, got " +
                           std::to_string(value.size()));
    }
    if (keyword == "items") {
      if (!value.is_array())
        return std::string();
      for (size_t i = 0; i < value.size(); ++i) {
        std::string error =
            check(argument, value[i], path + "[" + std::to_string(i) + "]");
        if (!error.empty())
          return error;
      }
      return std::string();
    }
    if (keyword == "properties") {
      if (!argument.is_object())
        return fail(path, "the schema's properties is not an object");
      if (!value.is_object())
        return std::string();
      for (auto it = argument.begin(); it != argument.end(); ++it) {
        auto member = value.find(it.key());
        if (member == value.end())
          continue;
        std::string error = check(*it, *member, child(path, it.key()));
        if (!error.empty())
          return error;
      }
      return std::string();
    }
    if (keyword == "required") {
      if (!argument.is_array())
        return fail(path, "the schema's required is not an array");
      if (!value.is_object())
        return std::string();
      for (const json &key : argument)
        if (!key.is_string())
          return fail(path, "the schema's required holds a non-string");
        else if (!value.contains(key.get<std::string>()))
          return fail(path, "missing '" + key.get<std::string>() + "'");
      return std::string();
    }
    if (keyword == "additionalProperties") {
      if (argument != json(false))
        return fail(path, "the schema's additionalProperties is not false");
      if (!value.is_object())
        return std::string();
      auto properties = schema.find("properties");
      for (auto it = value.begin(); it != value.end(); ++it)
        if (properties == schema.end() || !properties->contains(it.key()))
          return fail(child(path, it.key()), "unknown field");
      return std::string();
    }
    if (keyword == "anyOf" || keyword == "oneOf") {
      if (!argument.is_array())
        return fail(path, "the schema's " + keyword + " is not an array");
      int matches = 0;
      std::string first;
      for (const json &option : argument) {
        std::string error = check(option, value, path);
        if (error.empty())
          ++matches;
        else if (first.empty())
          first = error;
      }
      std::string description = schema.value("description", std::string());
      if (matches == 0)
        return fail(path, "expected " +
                              (description.empty() ? std::string("a match")
                                                   : description) +
                              ", got " + value.dump());
      if (keyword == "oneOf" && matches > 1)
        return fail(path, "matches more than one form of " +
                              (description.empty() ? keyword : description));
      return std::string();
    }
    if (keyword == "$ref") {
      if (!argument.is_string())
        return fail(path, "the schema's $ref is not a string");
      const std::string prefix = "#/$defs/";
      std::string ref = argument.get<std::string>();
      auto defs = root.find("$defs");
      if (ref.compare(0, prefix.size(), prefix) != 0 || defs == root.end() ||
          !defs->contains(ref.substr(prefix.size())))
        return fail(path, "the schema's $ref '" + ref + "' is not in $defs");
      return check((*defs)[ref.substr(prefix.size())], value, path);
    }
    return fail(path, "the schema uses '" + keyword +
                          "', which the validator does not implement");
  }

  const json &root;
};
} // namespace

std::string sage::rt::validateJsonSchema(const json &schema,
                                         const json &value) {
  return Validator(schema).check(schema, value, "");
}
