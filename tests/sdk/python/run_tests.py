"""Runs every test_*.py here with /usr/bin/python3 (Debian's python3-azure lives in its
dist-packages), against the endpoint that sdk_env.py reads from the environment.

A run that hangs (an endpoint that never answers, a receive without its wait) is stopped after
HOURGLASS_SB_TEST_TIMEOUT seconds (default 100) with every thread's stack printed, and fails.
"""
import faulthandler
import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
faulthandler.dump_traceback_later(int(os.environ.get("HOURGLASS_SB_TEST_TIMEOUT", "100")),
                                  exit=True)
suite = unittest.defaultTestLoader.discover(here, pattern=sys.argv[1] if len(sys.argv) > 1
                                            else "test_*.py")
result = unittest.TextTestRunner(verbosity=2).run(suite)
sys.exit(0 if result.wasSuccessful() else 1)
