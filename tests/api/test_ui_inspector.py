"""The web inspector through the real app: sign-in, pages, edits, CSRF and cookie rules."""

from __future__ import annotations

import re

import httpx
from litestar import Litestar

from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.domain.security.auth import Scope
from tests.api.conftest import TenantKeys, serve, services_opener

CSRF = re.compile(r'name="_csrf" value="([0-9a-f]+)"')
DIVERSE = [
    "My dentist appointment is on Thursday", "The bakery on Rua Augusta opens at seven",
    "Our cat refuses dry food", "I am allergic to penicillin", "The wifi password changed",
    "Tomás plays the cello", "I prefer trains over planes", "The car needs new tyres",
    "My passport expires in 2031", "We adopted a greyhound named Pixel",
    "The quarterly report is due in June", "I started learning Japanese",
    "Grandma's recipe uses cardamom", "The boiler makes a knocking sound",
    "I ran a half marathon in Seville", "Lena is vegetarian", "The landlord is Mr Okafor",
    "I take the 8:12 ferry to work", "Our wedding anniversary is 4 October",
    "The printer only works over USB", "I dislike cilantro", "Marco owes me 40 euros",
    "The garden tap leaks", "I sing bass in a choir", "The gym closes at ten on Sundays",
    "My blood type is O negative", "I keep bees on the roof", "The sofa came from IKEA",
    "Our router is in the hallway cupboard", "I broke my wrist skiing in 2019",
]


def csrf_of(page: httpx.Response) -> str:
    found = CSRF.search(page.text)
    assert found, page.text[:500]
    return found.group(1)


async def sign_in(client: httpx.AsyncClient, token: str, user: str = "") -> httpx.Response:
    form = await client.get("/ui/sign-in")
    assert form.status_code == 200
    return await client.post(
        "/ui/sign-in", data={"_csrf": csrf_of(form), "token": token, "user": user}
    )


async def store(client: httpx.AsyncClient, headers: dict[str, str], content: str) -> str:
    created = await client.post("/v1/memories", json={"content": content}, headers=headers)
    assert created.status_code == 201, created.text
    return str(created.json()["memory"]["id"])


async def read_only_detail(
    client: httpx.AsyncClient, tenant: TenantKeys, content: str
) -> tuple[str, httpx.Response]:
    """A memory of alice's, and its page as a read-only key of hers sees it."""
    memory_id = await store(client, tenant.alice, content)
    await sign_in(client, await tenant.token([Scope.READ], user_id="alice"))
    return memory_id, await client.get(f"/ui/memories/{memory_id}")


async def test_pages_need_a_signed_in_key(client: httpx.AsyncClient) -> None:
    for path in ("/ui/memories", "/ui/stats", "/ui/memories/00000000-0000-0000-0000-000000000001"):
        response = await client.get(path)
        assert response.status_code == 303
        assert response.headers["location"] == "/ui/sign-in"


async def test_a_revoked_or_unknown_key_cannot_sign_in(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    refused = await sign_in(client, "ml_" + "x" * 43)
    assert refused.status_code == 401
    assert "unknown or revoked" in refused.text
    assert "memlane_ui=" not in refused.headers.get("set-cookie", "")


async def test_an_unpinned_key_must_name_the_user(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    token = await tenant.token([Scope.READ, Scope.WRITE])
    refused = await sign_in(client, token)
    assert refused.status_code == 401
    assert "not pinned to a user" in refused.text
    accepted = await sign_in(client, token, "carol")
    assert accepted.status_code == 303
    page = await client.get("/ui/memories")
    assert page.status_code == 200
    assert "<strong>carol</strong>" in page.text


async def test_the_session_cookie_is_httponly_strict_and_scoped_to_the_ui(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    token = await tenant.token([Scope.READ], user_id="alice")
    signed = await sign_in(client, token)
    assert signed.status_code == 303
    cookie = next(c for c in signed.headers.get_list("set-cookie") if c.startswith("memlane_ui="))
    flags = {part.strip().lower() for part in cookie.split(";")}
    assert {"httponly", "samesite=strict", "path=/ui"} <= flags
    assert "secure" not in flags  # plain http here; https adds Secure


async def test_pages_are_not_stored_and_allow_no_scripts(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    await sign_in(client, await tenant.token([Scope.READ], user_id="alice"))
    for path in ("/ui/memories", "/ui/stats", "/ui/sign-in"):
        page = await client.get(path)
        assert page.status_code == 200, path
        assert page.headers["cache-control"] == "no-store"
        assert "script-src" not in page.headers["content-security-policy"]
        assert "default-src 'none'" in page.headers["content-security-policy"]
    stylesheet = await client.get("/ui/static/ui.css")
    assert stylesheet.status_code == 200
    assert stylesheet.headers["content-type"].startswith("text/css")


async def test_the_list_filters_and_searches_the_users_memories(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    await store(client, tenant.alice, "I live in Lisbon near the river")
    created = await client.post(
        "/v1/memories",
        json={"content": "Call me Al, never Alice", "memory_type": "correction", "tags": ["name"]},
        headers=tenant.alice,
    )
    assert created.status_code == 201
    await store(client, tenant.bob, "Bob keeps bees in Porto")
    await sign_in(client, await tenant.token([Scope.READ], user_id="alice"))

    everything = await client.get("/ui/memories")
    assert "Lisbon" in everything.text and "Call me Al" in everything.text
    assert "bees" not in everything.text
    corrections = await client.get("/ui/memories", params={"type": "correction"})
    assert "Call me Al" in corrections.text and "Lisbon" not in corrections.text
    tagged = await client.get("/ui/memories", params={"tag": "name"})
    assert "Call me Al" in tagged.text and "Lisbon" not in tagged.text
    searched = await client.get("/ui/memories", params={"q": "where does she live?"})
    assert "Lisbon" in searched.text
    bad = await client.get("/ui/memories", params={"min_importance": "2"})
    assert bad.status_code == 422 and "between 0 and 1" in bad.text


async def test_a_memorys_graph_draws_the_people_and_companies_it_names(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    _, detail = await read_only_detail(
        client, tenant, "My colleague Ravi is leaving Siemens in March"
    )
    assert detail.status_code == 200 and "node-entity" in detail.text
    assert "Ravi (person)" in detail.text and ">Siemens</text>" in detail.text


async def test_a_memory_is_edited_pinned_and_deleted_with_the_forms_token(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    memory_id = await store(client, tenant.alice, "My favourite tea is sencha")
    await sign_in(client, await tenant.token([Scope.READ, Scope.WRITE], user_id="alice"))
    detail = await client.get(f"/ui/memories/{memory_id}")
    assert detail.status_code == 200 and 'id="graph"' in detail.text
    token = csrf_of(detail)
    form = {"_csrf": token, "content": "My favourite tea is gyokuro", "memory_type": "preference",
            "tags": "tea, drinks", "importance": "0.9"}
    saved = await client.post(f"/ui/memories/{memory_id}", data=form)
    assert saved.status_code == 303
    edited = (await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice)).json()
    assert edited["content"] == "My favourite tea is gyokuro"
    assert edited["memory_type"] == "preference" and edited["tags"] == ["tea", "drinks"]

    pinned = await client.post(f"/ui/memories/{memory_id}/pin", data={"_csrf": token,
                                                                      "pinned": "true"})
    assert pinned.status_code == 303
    assert (await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice)).json()["pinned"]

    deleted = await client.post(f"/ui/memories/{memory_id}/delete",
                                data={"_csrf": token, "confirm": "yes"})
    assert deleted.status_code == 303
    gone = await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice)
    assert gone.status_code == 404


async def test_a_forged_write_without_the_token_changes_nothing(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    memory_id = await store(client, tenant.alice, "My bank is the blue one")
    await sign_in(client, await tenant.token([Scope.READ, Scope.WRITE], user_id="alice"))
    for form in ({"confirm": "yes"}, {"confirm": "yes", "_csrf": "0" * 64}):
        refused = await client.post(f"/ui/memories/{memory_id}/delete", data=form)
        assert refused.status_code == 403
        assert "CSRF" in refused.text
    assert (await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice)).status_code == 200


async def test_a_read_only_key_sees_no_forms_and_cannot_write(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    memory_id, detail = await read_only_detail(client, tenant, "My cat is called Miso")
    assert 'id="edit-form"' not in detail.text
    refused = await client.post(
        f"/ui/memories/{memory_id}/pin", data={"_csrf": csrf_of(detail), "pinned": "true"}
    )
    assert refused.status_code == 403


async def test_another_users_memory_is_not_found(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    bobs = await store(client, tenant.bob, "Bob's door code is 4711")
    await sign_in(client, await tenant.token([Scope.READ], user_id="alice"))
    hidden = await client.get(f"/ui/memories/{bobs}")
    assert hidden.status_code == 404
    assert "4711" not in hidden.text


async def test_the_statistics_page_draws_curves_and_the_embedding_gap(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    await store(client, tenant.alice, "I run on Sundays")
    await sign_in(client, await tenant.token([Scope.READ], user_id="alice"))
    stats = await client.get("/ui/stats")
    assert stats.status_code == 200
    assert stats.text.count("<polyline") == 5  # one forgetting curve per type
    assert 'id="counts"' in stats.text and "waiting for an embedding" in stats.text


async def test_signing_out_needs_the_token_and_ends_the_session(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    await sign_in(client, await tenant.token([Scope.READ], user_id="alice"))
    page = await client.get("/ui/memories")
    assert (await client.post("/ui/sign-out", data={})).status_code == 403
    out = await client.post("/ui/sign-out", data={"_csrf": csrf_of(page)})
    assert out.status_code == 303
    assert (await client.get("/ui/memories")).status_code == 303


async def test_the_list_pages_forward_without_repeats(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    batch = [{"content": f"{text} (note {n})"} for n, text in enumerate(DIVERSE)]
    stored = await client.post("/v1/memories/batch", json={"memories": batch}, headers=tenant.alice)
    assert stored.status_code in (200, 201), stored.text
    assert not any(r["merged"] for r in stored.json()["results"])
    await sign_in(client, await tenant.token([Scope.READ], user_id="alice"))
    first = await client.get("/ui/memories")
    link = re.search(r'href="([^"]+)" id="next-page"', first.text)
    assert link, "a second page is offered"
    second = await client.get(link.group(1).replace("&amp;", "&"))
    assert second.status_code == 200 and 'id="next-page"' not in second.text
    seen = re.findall(r"\(note (\d+)\)", first.text + second.text)
    assert sorted(map(int, seen)) == list(range(len(DIVERSE)))


async def test_over_https_the_session_cookie_is_secure(
    client: httpx.AsyncClient, app: Litestar, tenant: TenantKeys
) -> None:
    token = await tenant.token([Scope.READ], user_id="alice")
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="https://memlane.test"
    ) as https:
        signed = await sign_in(https, token)
    assert signed.status_code == 303
    cookie = next(c for c in signed.headers.get_list("set-cookie") if c.startswith("memlane_ui="))
    assert "secure" in {part.strip().lower() for part in cookie.split(";")}


async def test_without_auth_the_form_asks_only_for_the_user(api_services: ApiServices) -> None:
    app = create_app(services_opener(api_services), ApiConfig(auth_enabled=False))
    async with serve(app) as open_client:
        form = await open_client.get("/ui/sign-in")
        assert 'name="token"' not in form.text
        refused = await open_client.post("/ui/sign-in", data={"_csrf": csrf_of(form)})
        assert refused.status_code == 401 and "name the user" in refused.text
        signed = await open_client.post(
            "/ui/sign-in", data={"_csrf": csrf_of(form), "user": "dora"}
        )
        assert signed.status_code == 303
        page = await open_client.get("/ui/memories")
        assert page.status_code == 200 and "<strong>dora</strong>" in page.text


async def test_facts_show_the_profile_and_take_the_users_score(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    await store(client, tenant.alice, "I live in Berlin")
    await store(client, tenant.alice, "Last month I moved to Lisbon")
    await store(client, tenant.alice, "I work as a nurse at Santa Maria hospital")
    await sign_in(client, await tenant.token([Scope.READ, Scope.WRITE], user_id="alice"))
    listed = await client.get("/ui/facts")
    assert listed.status_code == 200 and 'id="profile-core"' in listed.text
    assert "Lisbon" in listed.text and "nurse" in listed.text and "Berlin" not in listed.text
    ended = await client.get("/ui/facts", params={"current": "false"})
    assert "Berlin" in ended.text and "superseded" in ended.text

    nurse = next(f for f in (await client.get("/v1/facts", headers=tenant.alice)).json()["items"]
                 if f["object"] == "nurse")
    path = f"/ui/facts/{nurse['id']}/score"
    assert (await client.post(path, data={"score": "10"})).status_code == 403  # no token
    scored = await client.post(path, data={"_csrf": csrf_of(listed), "score": "10"})
    assert scored.status_code == 303
    fact = (await client.get(f"/v1/facts/{nurse['id']}", headers=tenant.alice)).json()
    assert fact["user_fact_score"] == 10
    too_high = await client.post(path, data={"_csrf": csrf_of(listed), "score": "11"})
    assert too_high.status_code == 422 and "0-10" in too_high.text
    cleared = await client.post(path, data={"_csrf": csrf_of(listed), "score": ""})
    assert cleared.status_code == 303
    fact = (await client.get(f"/v1/facts/{nurse['id']}", headers=tenant.alice)).json()
    assert fact["user_fact_score"] is None


async def test_with_the_inspector_switched_off_there_is_no_ui(api_services: ApiServices) -> None:
    app = create_app(services_opener(api_services), ApiConfig(ui_enabled=False))
    async with serve(app) as no_ui:
        assert (await no_ui.get("/ui/sign-in")).status_code == 404
        assert (await no_ui.get("/ui/static/ui.css")).status_code == 404
        assert (await no_ui.get("/healthz")).status_code == 200


async def test_a_sign_in_posted_by_another_site_starts_no_session(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    token = await tenant.token([Scope.READ], user_id="alice")
    forged = await client.post("/ui/sign-in", data={"token": token})  # no form token, no cookie
    assert forged.status_code == 303 and forged.headers["location"] == "/ui/sign-in"
    assert "memlane_ui=" not in forged.headers.get("set-cookie", "")
    assert (await client.get("/ui/memories")).status_code == 303


async def test_a_memorys_history_shows_each_edit_as_a_word_diff_by_the_signed_in_key(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    memory_id = await store(client, tenant.alice, "My favourite tea is sencha from Shizuoka")
    await sign_in(client, await tenant.token([Scope.READ, Scope.WRITE], user_id="alice"))
    detail = await client.get(f"/ui/memories/{memory_id}")
    form = {"_csrf": csrf_of(detail), "content": "My favourite tea is gyokuro from Uji",
            "memory_type": "preference", "tags": "tea", "importance": "0.8"}
    assert (await client.post(f"/ui/memories/{memory_id}", data=form)).status_code == 303
    page = await client.get(f"/ui/memories/{memory_id}")
    history = page.text[page.text.index('id="history"'):page.text.index("Graph neighbourhood")]
    assert "created" in history and "updated" in history
    assert "<del>sencha</del>" in history and "<ins>gyokuro</ins>" in history
    assert "<del>Shizuoka</del>" in history and "<ins>Uji</ins>" in history
    assert history.count("key:") >= 2  # the REST write's key and the inspector's key


async def test_the_list_search_and_header_mark_a_superseded_memory_and_link_the_current_one(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    lisbon = await store(client, tenant.alice, "I live in Lisbon")
    porto = await store(client, tenant.alice, "I now live in Porto.")
    await sign_in(client, await tenant.token([Scope.READ], user_id="alice"))
    link = f'<a class="badge superseded" href="/ui/memories/{porto}"'
    listed = await client.get("/ui/memories")
    searched = await client.get("/ui/memories", params={"q": "Where do I live?"})
    for shown in (listed, searched):
        assert shown.status_code == 200 and link in shown.text
        rows = [r for r in shown.text.split("<tr") if "memory-link" in r]
        assert sum('class="badge superseded"' in r for r in rows) == 1
    assert searched.text.index(f"/ui/memories/{porto}\" class=\"memory-link\"") < \
        searched.text.index(f"/ui/memories/{lisbon}\" class=\"memory-link\"")
    only_current = await client.get("/ui/memories", params={"current": "true"})
    assert f"/ui/memories/{lisbon}\"" not in only_current.text
    header = await client.get(f"/ui/memories/{lisbon}")
    assert 'id="superseded"' in header.text
    assert f'<a href="/ui/memories/{porto}" id="current-memory">' in header.text
    assert 'id="superseded"' not in (await client.get(f"/ui/memories/{porto}")).text
