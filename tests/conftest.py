# pytester's in-process runs (tests/test_plugin.py) drop the modules first imported inside them; a process pool's
# module dropped there and imported again later leaves pickling two classes of one name ("not the same object"), so
# symdp's parallel runs in a later test of that worker fail. Imported here, it stays put.
import concurrent.futures.process  # noqa: F401
import scipy.optimize  # noqa: F401 (imported once, before pytester's runs drop and re-import modules)

import mpmath
import pytest
from hypothesis import settings

from symdp.precision import DEFAULT_DPS

# Deterministic draws in CI; a local run may use the database. Health checks stay on.
settings.register_profile("ci", derandomize=True, deadline=None, database=None)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci")


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", default=False, help="run the slow, exhaustive tests")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def default_working_precision():
    """Each test runs at symdp's default precision (its tolerances assume it) and restores the global one."""
    with mpmath.workdps(DEFAULT_DPS):
        yield
