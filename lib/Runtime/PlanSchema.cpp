//===- PlanSchema.cpp - the launch plan's schema, built in ----------------===//
//
// docs/launch-plan.schema.json as a string (PlanSchema.inc, written by
// CMake from that file), so the runtime validates plans against the file
// the docs come from.
//
//===----------------------------------------------------------------------===//

#include "sage/Runtime/JsonSchema.h"

const nlohmann::json &sage::rt::getPlanSchema() {
  static const nlohmann::json schema = nlohmann::json::parse(
#include "PlanSchema.inc"
      , nullptr, /*allow_exceptions=*/false);
  return schema;
}
