"""The JSON reader every outside document goes through: strict JSON, and one named error for anything else."""

import pytest

from controller.jsonin import MAX_DIGITS, read_json
from engine.errors import MjtableError


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"n": ' + "9" * 4301 + "}", "4301 digits"),
        ('{"n": -' + "9" * (MAX_DIGITS + 1) + "}", f"{MAX_DIGITS + 1} digits"),
        ('{"base": NaN}', "NaN: JSON has no number that is not finite"),
        ("[Infinity]", "Infinity: JSON has no"),
        ("[-Infinity]", "-Infinity: JSON has no"),
        ('{"base": 1e999}', "too large"),
        ("[" * 100_000, "nested too deeply"),
        (b'"\x80"', "not UTF-8"),
        ("{", "at character 1"),
        ("\ufeff{}", "Unexpected UTF-8 BOM (decode using utf-8-sig) at character 0"),
        ("{} x", "Extra data at character 3"),
        (" ", "Expecting value at character 1"),
    ],
)
def test_what_strict_json_does_not_allow_is_one_named_error(text, reason):
    with pytest.raises(MjtableError) as error:
        read_json(text, "request")
    assert str(error.value).startswith("request: not JSON (") and reason in str(error.value)
    assert len(str(error.value)) < 200


def test_numbers_within_the_bounds_are_read():
    assert read_json('{"a": ' + "9" * MAX_DIGITS + ', "b": 1e308, "c": -0.5}', "x") == {
        "a": int("9" * MAX_DIGITS),
        "b": 1e308,
        "c": -0.5,
    }


def test_bytes_and_one_decoder_after_another_read_alike():
    assert read_json(b'{"a": [1, "x"]}', "x") == read_json('{"a": [1, "x"]}', "x") == {"a": [1, "x"]}
    assert read_json('{"a": 2}', "x") == {"a": 2}  # the decoder kept between documents keeps nothing of them
