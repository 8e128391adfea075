"""A fresh PostgreSQL database for a test, on the server scripts/test.sh starts.

PostgreSQL runs when PBEM_TEST_POSTGRES holds a libpq-style "host=… port=… user=…
password=…"; without it a test is skipped, except under CI, where it fails."""

from __future__ import annotations

import os
import uuid

import pytest


def postgres_env() -> dict[str, str]:
    """pbem's settings (eventsourcing's variables) for a new, empty database."""
    spec = os.environ.get("PBEM_TEST_POSTGRES")
    if not spec:
        if os.environ.get("CI"):
            pytest.fail("PBEM_TEST_POSTGRES is not set: scripts/test.sh starts PostgreSQL for these tests")
        pytest.skip("no PostgreSQL configured (run scripts/test.sh)")
    import psycopg

    params = dict(item.split("=", 1) for item in spec.split())
    dbname = f"pbem_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(**params, dbname="postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{dbname}"')
    return {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": dbname,
            "POSTGRES_HOST": params["host"], "POSTGRES_PORT": params["port"], "POSTGRES_USER": params["user"],
            "POSTGRES_PASSWORD": params["password"]}
