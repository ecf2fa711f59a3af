"""The command line a new user meets: whole-sentence help, and scopes that never narrow silently."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from memlane.cli import main
from memlane.cli.common import reach_of, say_scope
from memlane.domain.model import DEFAULT_TENANT, Owner
from memlane.domain.reach import TenantReach

SINGLE_TENANT = (("export",), ("import",), ("import-chats",), ("mcp",), ("keys", "create"))
EVERY_TENANT = (("decay",), ("cleanup",), ("stats",), ("verify-audit",), ("keys", "list"))


def command(*path: str) -> click.Command:
    found: click.Command = main
    for name in path:
        assert isinstance(found, click.Group)
        found = found.commands[name]
    return found


def summaries(*group: str) -> list[str]:
    shown = CliRunner().invoke(main, [*group, "--help"], terminal_width=80).output
    listed = shown.split("Commands:\n", 1)[1].splitlines()
    return [line.split(None, 1)[1] for line in listed if line.strip()]


@pytest.mark.parametrize("group", [(), ("keys",)])
def test_every_help_summary_is_a_whole_sentence(group: tuple[str, ...]) -> None:
    lines = summaries(*group)
    assert lines and all(line.endswith(".") and "..." not in line for line in lines), lines
    assert all(line[0].isupper() for line in lines), lines


@pytest.mark.parametrize("path", SINGLE_TENANT)
def test_a_single_tenant_command_defaults_to_the_default_tenant(path: tuple[str, ...]) -> None:
    (tenant,) = [p for p in command(*path).params if p.name == "tenant"]
    assert tenant.default == DEFAULT_TENANT and not tenant.required


@pytest.mark.parametrize("path", EVERY_TENANT)
def test_a_command_that_acts_on_every_tenant_says_so_with_a_flag(path: tuple[str, ...]) -> None:
    names = {p.name: p for p in command(*path).params}
    assert names["all_tenants"].is_flag  # type: ignore[attr-defined]
    assert names["tenant"].default is None  # never the default tenant in disguise


def test_a_tenant_always_narrows_and_every_tenant_is_said(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert reach_of("acme", None, False) == TenantReach("acme")
    assert reach_of(None, "bob", False) == Owner(DEFAULT_TENANT, "bob")
    assert reach_of("acme", "bob", False) == Owner("acme", "bob")
    say_scope(Owner("acme", "bob"))
    assert capsys.readouterr().err == ""
    assert reach_of(None, None, True) is None is reach_of(None, None, False)
    say_scope(None)
    assert "every tenant" in capsys.readouterr().err
    with pytest.raises(click.UsageError):
        reach_of("acme", None, True)
