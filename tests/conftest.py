"""One local 2-CPU Ray instance for the whole test session (Ray takes seconds to start).

Every test that needs Ray (the backend tests, the blueprint's shards) takes the
``ray_backend`` fixture and is in the xdist group ``ray`` (``make test`` runs
``--dist loadgroup``), so one worker process starts it. Ray missing is a failure, not a
skip: ``make test`` installs the extra ``distributed``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from checkraise.backend import Backend, make_backend
from checkraise.errors import ConfigError


@pytest.fixture(scope="session")
def ray_backend() -> Iterator[Backend]:
    try:
        backend = make_backend("ray", workers=2)
    except ConfigError as exc:  # pragma: no cover - only without the extra
        pytest.fail(f"the Ray backend tests need ray: {exc}")
    with backend:
        yield backend
