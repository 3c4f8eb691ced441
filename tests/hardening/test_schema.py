"""Issue 13 item 15: the OpenAPI schema is true — it validates with no warning, marks the session
cookie as the authentication, has one operationId per operation, and documents the bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict:
    path: Path = tmp_path_factory.mktemp("schema") / "schema.yml"
    # --fail-on-warn raises on any warning or error of drf-spectacular (and --validate on the spec)
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    return yaml.safe_load(path.read_text())


def test_schema_validates_without_warnings(schema: dict) -> None:
    assert schema["openapi"].startswith("3.")


def test_session_authentication_is_marked(schema: dict) -> None:
    assert schema["components"]["securitySchemes"]["cookieAuth"] == {
        "type": "apiKey",
        "in": "cookie",
        "name": "sessionid",
    }
    assert {"cookieAuth": []} in schema["paths"]["/api/auth/password"]["post"]["security"]


def test_operation_ids_are_unique(schema: dict) -> None:
    ids = [
        op["operationId"] for item in schema["paths"].values() for op in item.values() if "operationId" in op
    ]
    assert len(ids) == len(set(ids))


def test_response_bodies_and_errors_are_documented(schema: dict) -> None:
    sheet = schema["paths"]["/api/rulezz/sheets/{sheet_id}"]["get"]["responses"]
    assert sheet["200"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Sheet"}
    listing = schema["paths"]["/api/rulezz/sheets"]["get"]
    assert any(p["name"] == "page" for p in listing["parameters"])
    for item in schema["paths"].values():
        for operation in item.values():
            assert "default" in operation["responses"]  # the one error shape of config.api


@pytest.mark.django_db
def test_building_the_schema_reads_no_table(django_assert_num_queries: Any) -> None:
    """schemathesis loads the schema at collection, before the test database exists: a query
    there opened PostgreSQL's connection pool on the site's own database, and every test of that
    pytest worker then ran against it (CI, tier 2)."""
    from drf_spectacular.generators import SchemaGenerator

    with django_assert_num_queries(0):
        SchemaGenerator().get_schema(request=None, public=True)
