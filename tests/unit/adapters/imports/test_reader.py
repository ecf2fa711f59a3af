"""Exports are read from conversations.json or its zip, one chat at a time, or refused clearly."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from memlane.adapters.imports import parse_export, read_export
from memlane.adapters.imports.stream import iter_json_list
from memlane.domain.portability.chats import ImportFormatError

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "imports"
FORMATS = ["chatgpt", "claude"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=10,
)


def fixture(format: str) -> Path:
    return FIXTURES / f"{format}_conversations.json"


def zipped(tmp_path: Path, format: str, member: str) -> Path:
    """The fixture packed the way the services ship it, next to files that are not it."""
    path = tmp_path / "export.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("user.json", '{"id": "someone"}')
        archive.writestr("__MACOSX/conversations.json", "not json")
        archive.write(fixture(format), member)
    return path


@pytest.mark.parametrize("format", FORMATS)
def test_reading_the_file_gives_what_parsing_the_loaded_json_gives(format: str) -> None:
    loaded = json.loads(fixture(format).read_text(encoding="utf-8"))
    assert list(read_export(fixture(format), format)) == list(parse_export(loaded, format))


@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize("member", ["conversations.json", "export-2024/conversations.json"])
def test_the_export_zip_reads_like_its_conversations_json(
    tmp_path: Path, format: str, member: str
) -> None:
    from_zip = list(read_export(zipped(tmp_path, format, member), format))
    assert len(from_zip) == 2
    assert from_zip == list(read_export(fixture(format), format))


def test_a_zip_without_conversations_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "photos.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("chat.html", "<html></html>")
    with pytest.raises(ImportFormatError, match=r"photos\.zip: no conversations\.json"):
        list(read_export(path, "chatgpt"))


def test_an_unknown_format_is_refused_before_reading() -> None:
    with pytest.raises(ImportFormatError, match="unknown export format 'gemini'"):
        read_export(FIXTURES / "does-not-exist.json", "gemini")  # type: ignore[arg-type]


def test_a_byte_order_mark_is_not_content(tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_bytes(b"\xef\xbb\xbf" + fixture("claude").read_bytes())
    assert len(list(read_export(path, "claude"))) == 2


def test_chats_before_a_broken_one_are_yielded_before_the_error(tmp_path: Path) -> None:
    good = json.loads(fixture("claude").read_text(encoding="utf-8"))[0]
    path = tmp_path / "conversations.json"
    path.write_text(f"[{json.dumps(good)}, {{\"uuid\": \"x\", ", encoding="utf-8")
    chats = read_export(path, "claude")
    assert next(chats).external_id == good["uuid"]
    with pytest.raises(ImportFormatError, match="conversation 1: invalid JSON"):
        next(chats)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"uuid": "x"}', "expected a list"),
        ("", "expected a list"),
        ("[", "ends before conversation 0"),
        ("[{}, ", "ends before conversation 1"),
        ("[{} {}]", "expected ',' or ']' after conversation 0"),
        ("[{}] []", "unexpected data after the list"),
        ("[{\"a\": tru}]", "conversation 0: invalid JSON"),
    ],
)
def test_broken_json_is_refused_with_where_it_broke(text: str, problem: str) -> None:
    with pytest.raises(ImportFormatError, match=problem):
        list(iter_json_list(io.StringIO(text), chunk_chars=2))


def test_text_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_bytes(b'[{"uuid": "\xff"}]')
    with pytest.raises(ImportFormatError, match="not UTF-8"):
        list(read_export(path, "claude"))


@given(
    items=st.lists(json_values, max_size=5),
    chunk=st.integers(1, 16),
    indent=st.sampled_from([None, 2]),
)
def test_streaming_in_any_chunk_size_yields_exactly_the_list(
    items: list[object], chunk: int, indent: int | None
) -> None:
    text = json.dumps(items, indent=indent)
    assert list(iter_json_list(io.StringIO(text), chunk_chars=chunk)) == items
