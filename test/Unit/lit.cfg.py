# -*- Python -*-
# Runs the GoogleTest binaries under build/unittests (names ending in Tests).

import os

import lit.formats

config.name = "SAGE-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.sage_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
