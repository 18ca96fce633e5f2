#!/usr/bin/env python3
"""Writes the field reference of docs/LaunchPlan.md from the launch plan's
schema (docs/launch-plan.schema.json), between the markers

    <!-- BEGIN plan-schema (scripts/plan-schema-doc.py) -->
    <!-- END plan-schema -->

so the reference and the schema the runtime validates against cannot drift.

usage: plan-schema-doc.py [--check] [--root DIR]
  --check  exit 1 if the docs differ from the schema (the lit test does)
"""

import argparse
import json
import os
import sys

BEGIN = "<!-- BEGIN plan-schema (scripts/plan-schema-doc.py) -->"
END = "<!-- END plan-schema -->"


def spell(node, defs):
    """A short type for a schema node."""
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        return {"type": "type", "size": "size", "dim3": "[size, size, size]",
                "pair": "[size, size]"}.get(name, name)
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return " \\| ".join(json.dumps(v) for v in node["enum"])
    kind = node.get("type", "")
    if "minimum" in node:
        return f"{kind} >= {node['minimum']}"
    if "exclusiveMinimum" in node:
        return f"{kind} > {node['exclusiveMinimum']}"
    if kind == "array":
        return "[" + spell(node.get("items", {}), defs) + ", ...]"
    return kind


def rows(properties, required, defs, prefix=""):
    out = []
    for name, node in properties.items():
        target = node
        if "$ref" in node:
            target = defs[node["$ref"].rsplit("/", 1)[1]]
        optional = "" if name in required else " (optional)"
        description = node.get("description") or target.get("description", "")
        out.append(f"| `{prefix}{name}` | {spell(node, defs)}{optional} | "
                   f"{description} |")
        if target.get("type") == "object" and "properties" in target:
            out += rows(target["properties"], target.get("required", []), defs,
                        prefix + name + ".")
        items = target.get("items", {})
        if target.get("type") == "array" and "$ref" in items:
            item = defs[items["$ref"].rsplit("/", 1)[1]]
            if "properties" in item:
                out += rows(item["properties"], item.get("required", []), defs,
                            prefix + name + "[].")
    return out


def render(schema):
    defs = schema["$defs"]
    lines = [BEGIN,
             "",
             schema["description"],
             "",
             "| field | value | meaning |",
             "|---|---|---|"]
    lines += rows(schema["properties"], schema["required"], defs)
    lines += ["",
              "Kernel parameters (`kernels[].params[]`): "
              + defs["param"]["description"],
              "",
              defs["size"]["description"],
              "",
              defs["type"]["description"],
              "",
              END]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), ".."))
    args = parser.parse_args()
    schema_path = os.path.join(args.root, "docs", "launch-plan.schema.json")
    docs_path = os.path.join(args.root, "docs", "LaunchPlan.md")
    schema = json.load(open(schema_path))
    docs = open(docs_path).read()
    if BEGIN not in docs or END not in docs:
        sys.exit(f"{docs_path}: no {BEGIN} ... {END} section")
    start, end = docs.index(BEGIN), docs.index(END) + len(END)
    updated = docs[:start] + render(schema) + docs[end:]
    if args.check:
        if updated != docs:
            sys.exit(f"{docs_path} is out of date with {schema_path}: run "
                     "scripts/plan-schema-doc.py")
        print("plan-schema-doc: docs/LaunchPlan.md matches the schema")
        return
    open(docs_path, "w").write(updated)


if __name__ == "__main__":
    main()
