"""Every plan the build compiled (build/kernels) is read by sage-run, which
validates it against docs/launch-plan.schema.json, and, where the Python
jsonschema package is installed, by that reference validator too.

usage: check_plans.py KERNEL_DIR SCHEMA SAGE_RUN"""

import glob
import json
import subprocess
import sys


def main():
    kernel_dir, schema_path, sage_run = sys.argv[1:4]
    plans = sorted(glob.glob(f"{kernel_dir}/*.json"))
    failed = 0
    for plan in plans:
        run = subprocess.run([sage_run, plan, "--dry-run"],
                             capture_output=True, text=True)
        if run.returncode:
            failed += 1
            print(f"FAIL {plan}: {run.stderr.strip()}")
    print(f"sage-run: {len(plans) - failed} of {len(plans)} plans valid")
    try:
        import jsonschema
    except ImportError:
        print("jsonschema: not installed")
        return
    schema = json.load(open(schema_path))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    invalid = [p for p in plans if not validator.is_valid(json.load(open(p)))]
    for plan in invalid:
        print(f"FAIL {plan}: jsonschema refuses it")
    print(f"jsonschema: {len(plans) - len(invalid)} of {len(plans)} plans "
          "valid")


if __name__ == "__main__":
    main()
