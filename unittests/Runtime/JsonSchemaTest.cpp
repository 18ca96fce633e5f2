//===- JsonSchemaTest.cpp - Validation against a JSON Schema --------------===//

#include "sage/Runtime/JsonSchema.h"

#include "gtest/gtest.h"

using namespace sage::rt;
using json = nlohmann::json;

static std::string validate(const char *schema, const char *value) {
  return validateJsonSchema(json::parse(schema), json::parse(value));
}

TEST(JsonSchemaTest, Keywords) {
  const char *schema = R"({
    "type": "object",
    "properties": {
      "n": {"type": "integer", "minimum": 1},
      "s": {"$ref": "#/$defs/size"},
      "list": {"type": "array", "items": {"enum": ["a", "b"]},
               "minItems": 1, "maxItems": 2}
    },
    "required": ["n"],
    "additionalProperties": false,
    "$defs": {"size": {"anyOf": [{"type": "integer"}, {"const": "N"}],
                       "description": "an integer or N"}}
  })";
  EXPECT_EQ(validate(schema, R"({"n": 1, "s": "N", "list": ["a"]})"), "");
  EXPECT_EQ(validate(schema, R"({"s": 3})"), "field '(plan)': missing 'n'");
  EXPECT_EQ(validate(schema, R"({"n": 0})"),
            "field 'n': expected at least 1, got 0");
  EXPECT_EQ(validate(schema, R"({"n": 1.5})"),
            "field 'n': expected integer, got 1.5");
  EXPECT_EQ(validate(schema, R"({"n": 1, "m": 2})"),
            "field 'm': unknown field");
  EXPECT_EQ(validate(schema, R"({"n": 1, "s": "M"})"),
            "field 's': expected an integer or N, got \"M\"");
  EXPECT_EQ(validate(schema, R"({"n": 1, "list": ["a", "c"]})"),
            "field 'list[1]': expected one of [\"a\",\"b\"], got \"c\"");
  EXPECT_EQ(validate(schema, R"({"n": 1, "list": []})"),
            "field 'list': expected at least 1 items, got 0");
  EXPECT_EQ(validate(schema, R"({"n": 1, "list": ["a", "a", "b"]})"),
            "field 'list': expected at most 2 items, got 3");
}

TEST(JsonSchemaTest, ExclusiveMinimum) {
  const char *schema = R"({"type": "number", "exclusiveMinimum": 0})";
  EXPECT_EQ(validate(schema, "0.5"), "");
  EXPECT_EQ(validate(schema, "0"),
            "field '(plan)': expected more than 0, got 0");
  EXPECT_EQ(validate(schema, "-2"),
            "field '(plan)': expected more than 0, got -2");
}

TEST(JsonSchemaTest, OneOfMatchesExactlyOne) {
  const char *schema =
      R"({"oneOf": [{"type": "integer"}, {"type": "number"}]})";
  EXPECT_EQ(validate(schema, "1.5"), "");
  EXPECT_EQ(validate(schema, "1"),
            "field '(plan)': matches more than one form of oneOf");
}

TEST(JsonSchemaTest, RefusesWhatItDoesNotImplement) {
  // A keyword the validator cannot check is an error, never ignored.
  EXPECT_EQ(validate(R"({"pattern": "^sm_"})", R"("sm_90")"),
            "field '(plan)': the schema uses 'pattern', which the validator "
            "does not implement");
  EXPECT_EQ(validate(R"({"$ref": "#/definitions/x"})", "1"),
            "field '(plan)': the schema's $ref '#/definitions/x' is not in "
            "$defs");
  EXPECT_EQ(validate(R"({"additionalProperties": {"type": "integer"}})", "{}"),
            "field '(plan)': the schema's additionalProperties is not false");
}

TEST(JsonSchemaTest, PlanSchemaIsBuiltIn) {
  const json &schema = getPlanSchema();
  ASSERT_TRUE(schema.is_object());
  EXPECT_EQ(schema["properties"]["version"]["const"], 2);
}
