"""Scopes and reach: admin covers its tenant, operator every tenant; neither leaks across."""

from __future__ import annotations

from memlane.domain.model import Owner
from memlane.domain.reach import TenantReach, bounds, covers, describe
from memlane.domain.security.auth import Principal, Scope


def principal(*scopes: Scope) -> Principal:
    return Principal(key_id=None, tenant="a", user_id=None, scopes=frozenset(scopes))


def test_an_admin_holds_read_and_write_but_not_operator() -> None:
    admin = principal(Scope.ADMIN)
    assert admin.allows(Scope.READ) and admin.allows(Scope.WRITE) and admin.is_admin
    assert not admin.allows(Scope.OPERATOR) and not admin.is_operator


def test_an_operator_holds_every_scope() -> None:
    operator = principal(Scope.OPERATOR)
    assert all(operator.allows(scope) for scope in Scope)
    assert operator.is_operator and operator.is_admin


def test_a_tenant_reach_covers_its_users_and_no_other_tenants() -> None:
    reach = TenantReach("a")
    assert covers(reach, Owner("a", "alice")) and covers(reach, Owner("a", "bob"))
    assert not covers(reach, Owner("b", "alice"))


def test_an_owner_reach_covers_that_owner_only_and_none_covers_all() -> None:
    assert covers(Owner("a", "alice"), Owner("a", "alice"))
    assert not covers(Owner("a", "alice"), Owner("a", "bob"))
    assert covers(None, Owner("z", "anyone"))
    assert [describe(r) for r in (Owner("a", "x"), TenantReach("a"), None)] == [
        "user", "tenant", "all",
    ]


def test_a_reach_names_its_tenant_and_user_and_leaves_the_rest_open() -> None:
    assert bounds(None) == (None, None)
    assert bounds(TenantReach("acme")) == ("acme", None)
    assert bounds(Owner("acme", "ana")) == ("acme", "ana")
