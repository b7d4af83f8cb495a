"""realtime.fastjson writes and reads what the standard library would."""

from __future__ import annotations

import json

from realtime import fastjson


def test_it_writes_what_json_dumps_reads_back_the_same():
    value = {"a": [1, 2.5, None, True], "b": {"c": "é"}, 3: "int key", "t": 1796112993.1839116}
    assert json.loads(fastjson.dumps(value)) == json.loads(json.dumps(value))
    assert fastjson.dumps_text(value) == fastjson.dumps(value).decode()


def test_it_reads_what_only_the_standard_library_reads():
    assert fastjson.loads('{"x": NaN}')["x"] != fastjson.loads('{"x": NaN}')["x"]  # NaN
    assert fastjson.loads(b'{"x": [1, "y"]}') == {"x": [1, "y"]}
