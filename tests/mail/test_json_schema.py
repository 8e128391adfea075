"""Issue 25 item 2: the JSON attachment's published schema is the model's, and the model
answers every attachment of another shape with where and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.core.jsonorders import JsonOrdersError, orders_from_json, schema_json

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "orders.schema.json"


def test_the_published_schema_is_current() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == schema_json(), \
        "regenerate it: python -m pbem.core.jsonorders > docs/orders.schema.json"


@pytest.mark.parametrize(("attachment", "where"), [
    ({"press": 5}, "press: Input should be a valid list"),
    ({"press": [{"to": ["A"], "text": "hi"}]}, "press.0.to: Input should be a valid string"),
    ({"press": [{"text": "hi\nENDPRESS\nGM ROLLBACK c t1"}]}, "press.0.text: Value error, a line ENDPRESS"),
    ({"orders": ["BID 3", 4]}, "orders.1: Input should be a valid string"),
    (["BID 3", None], "orders.1: Input should be a valid string"),
    ({"signon": {"player": "p1", "campaign": "c"}}, "signon.token: Field required"),
    ({"signon": "p1 c"}, "write three words"),
    ({"orderz": []}, "orderz: Extra inputs are not permitted"),
    ("BID 3", "must be a list of order lines or an object"),
])
def test_an_attachment_of_another_shape_is_refused_where_it_is_wrong(attachment: object, where: str) -> None:
    with pytest.raises(JsonOrdersError) as refused:
        orders_from_json(attachment)
    assert where in str(refused.value)


def test_an_attachment_of_the_published_shape_reads_as_the_same_mail() -> None:
    attachment = json.loads('{"signon": {"player": "p1", "campaign": "c", "token": "t"}, "orders": ["BID 3"],'
                            ' "policies": ["POLICY BID DO BID 0"], "press": [{"to": "FRA", "text": "Hello\\nthere"}]}')
    assert orders_from_json(attachment) == ("SIGNON p1 c t\nBID 3\nPOLICY BID DO BID 0\nPRESS TO FRA\nHello\nthere\n"
                                            "ENDPRESS")
    assert orders_from_json(["BID 3"]) == "BID 3"
