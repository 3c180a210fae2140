"""Hypothesis profiles: `ci` (CI=true) keeps the whole run short on 2 cores; `dev` is the
default; `thorough` (HYPOTHESIS_PROFILE=thorough) searches harder before a release."""

import os
import signal

import pytest
from hypothesis import HealthCheck, settings

# The comparisons in helpers.py report their operands on failure like the tests' own asserts.
pytest.register_assert_rewrite("helpers")

# Function-scoped fixtures: the implementation a rule test runs on is one for all its examples.
SUPPRESSED = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=SUPPRESSED)
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=SUPPRESSED)
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, suppress_health_check=SUPPRESSED
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# The Ctrl-C tests simulate the key with _thread.interrupt_main, which does nothing while SIGINT
# is ignored, as it is in a command a non-interactive shell starts in the background (`... &`):
# Python's own handler is put back for the run, so those tests mean the same wherever it starts.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
