"""`dumps_indented` and `dump_indented` against the standard library's `json.dumps(indent=1)` (the oracle)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skir.targets.json_text import dump_indented, dumps_indented

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text()
keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(keys, inner, max_size=4), max_leaves=30)


@given(values)
@settings(max_examples=400, deadline=None)
def test_same_bytes_as_json_dumps(value: object) -> None:
    assert dumps_indented(value) == json.dumps(value, indent=1)


def test_hand_written_layout() -> None:
    assert dumps_indented({"a": [1, {}], "b": [], "é": "\u00e9\n"}) == (
        '{\n "a": [\n  1,\n  {}\n ],\n "b": [],\n "\\u00e9": "\\u00e9\\n"\n}')


def test_unsupported_value_is_json_type_error() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        dumps_indented({"x": object()})


def test_a_document_of_many_chunks_is_the_same_bytes() -> None:
    doc = {"superkernels": [{"name": f"sk{i}", "members": [[f"s{i % 3}", i, j / 7] for j in range(5)],
                             "none": {}, "empty": []} for i in range(3000)]}
    assert dumps_indented(doc) == json.dumps(doc, indent=1)


def test_written_to_a_file_chunk_by_chunk_is_the_same_bytes() -> None:
    doc = {"superkernels": [{"name": f"sk{i}", "members": [[f"s{i % 3}", i, j / 7] for j in range(5)]}
                            for i in range(3000)], "empty": {}}
    writes: list[str] = []

    class Recording(io.StringIO):
        def write(self, text: str) -> int:
            writes.append(text)
            return super().write(text)

    out = Recording()
    dump_indented(doc, out)
    assert out.getvalue() == json.dumps(doc, indent=1)
    assert len(writes) > 1  # written as it is made, not as one text
    small = io.StringIO()
    dump_indented([], small)
    assert small.getvalue() == "[]"
