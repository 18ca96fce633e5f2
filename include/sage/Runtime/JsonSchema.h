//===- JsonSchema.h - Validation against a JSON Schema ----------*- C++ -*-===//
//
// Validates a JSON value against a JSON Schema (draft 2020-12), for the
// launch plan's schema (docs/launch-plan.schema.json). Only the keywords
// that schema uses are implemented: type, const, enum, minimum, minLength,
// properties, required, additionalProperties (false), items, minItems,
// maxItems, anyOf, oneOf and $ref into #/$defs. Annotations (description,
// title, $schema, $id) are ignored; any other keyword is an error, so a
// schema cannot ask for a check that would silently not be made.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_JSONSCHEMA_H
#define SAGE_RUNTIME_JSONSCHEMA_H

#include <nlohmann/json.hpp>

#include <string>

namespace sage::rt {

/// Returns an empty string if \p value conforms to \p schema, otherwise
/// "field 'PATH': WHAT" for the first violation found (the path as the plan
/// reader spells it: "kernels[0].grid[1]").
std::string validateJsonSchema(const nlohmann::json &schema,
                               const nlohmann::json &value);

/// The launch plan's schema, docs/launch-plan.schema.json as built in.
const nlohmann::json &getPlanSchema();

} // namespace sage::rt

#endif // SAGE_RUNTIME_JSONSCHEMA_H
