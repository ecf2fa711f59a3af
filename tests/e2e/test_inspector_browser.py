"""The web inspector in a real headless Chromium against `memlane serve` as a process.

Debian's `chromium` and `chromium-driver` drive it (`make test` installs them when missing).
With MEMLANE_UI_SCREENSHOTS=<dir> every view is saved there as a PNG (docs/ui/ holds them).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.wait import WebDriverWait

from memlane.domain.similarity import DEFAULT_EMBEDDING_MODEL
from tests.e2e.test_serve_process import MEMLANE, REPO, Deployment, free_port

pytestmark = pytest.mark.e2e

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SCREENSHOTS = os.environ.get("MEMLANE_UI_SCREENSHOTS", "")
WIDTH = 1280

# Older memories come in through `memlane import` with their dates, so the statistics page
# has memories of many ages; the newest through REST, so the graph links them as written.
IMPORTED = [
    (95, "context", 0.5, "Spent the spring planning the kitchen renovation", []),
    (70, "tool_result", 0.4, "Flight search: Lisbon to Porto from 39 EUR on 3 March", ["travel"]),
    (60, "preference", 0.8, "Prefers window seats on trains and planes", ["travel"]),
    (45, "fact", 0.9, "My sister Ana lives in Porto", ["family"]),
    (40, "fact", 0.7, "Ana's birthday is on 12 May", ["family"]),
    (30, "preference", 0.6, "Likes dark mode in every editor", ["ui"]),
    (21, "context", 0.5, "Working on the memlane inspector this month", ["work"]),
    (12, "tool_result", 0.3, "Weather API: 14 degrees and drizzle in Lisbon", []),
    (6, "correction", 0.9, "Call me Sam, never Samuel", ["name"]),
]
# Stored while the embedder is down: the statistics count them as waiting for an embedding.
UNEMBEDDED = [
    "Eve's train to Ghent leaves at 07:42 every weekday",
    "The spare key is under the blue flower pot",
]
WRITTEN: list[dict[str, object]] = [
    {"content": "I live in Berlin", "tags": ["home"]},
    {"content": "I love coffee in the morning"},
    {"content": "Last month I moved to Lisbon", "tags": ["home"]},
    {"content": "I work as a nurse at Santa Maria hospital", "tags": ["work"]},
    {"content": "I don't drink coffee anymore"},
]


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    if not os.path.exists(CHROMIUM) or not os.path.exists(CHROMEDRIVER):
        pytest.fail("Chromium is missing: `make test` installs Debian's chromium and "
                    "chromium-driver (apt-get install -y chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     f"--window-size={WIDTH},900", "--hide-scrollbars"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(5)
    try:
        yield driver
    finally:
        driver.quit()


def seed(deployment: Deployment, token: str) -> dict[str, str]:
    """Alice's memories; returns the ids of the REST-written ones by content."""
    now = datetime.now(UTC)
    records = [
        {"content": text, "memory_type": kind, "importance": importance, "tags": tags,
         "created_at": (now - timedelta(days=age)).isoformat()}
        for age, kind, importance, text, tags in IMPORTED
    ]
    assert_imported(deployment.cli, records)
    assert_imported(embedder_down(deployment), [{"content": text} for text in UNEMBEDDED])
    ids = {}
    with httpx.Client(base_url=deployment.base_url, timeout=60) as http:
        for body in WRITTEN:
            created = http.post("/v1/memories", json=body,
                                headers={"Authorization": f"Bearer {token}"})
            assert created.status_code == 201, created.text
            ids[str(body["content"])] = created.json()["memory"]["id"]
        stated = http.post("/v1/facts", json={"relation": "allergic_to", "object": "penicillin",
                                              "user_fact_score": 9},
                           headers={"Authorization": f"Bearer {token}"})
        assert stated.status_code == 201, stated.text
    return ids


def assert_imported(
    cli: Callable[..., subprocess.CompletedProcess[str]], records: list[dict[str, object]]
) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False) as file:
        file.write("\n".join(json.dumps(r) for r in records))
    try:
        imported = cli("import", "--tenant", "demo", "--user", "alice", file.name)
        assert imported.returncode == 0, imported.stderr
    finally:
        os.unlink(file.name)


def embedder_down(deployment: Deployment) -> Callable[..., subprocess.CompletedProcess[str]]:
    """The CLI with an embedder that does not answer (an Ollama nobody listens for)."""
    down = {
        **deployment.env,
        "MEMLANE_MEMORY__EMBEDDING__PROVIDER": "ollama",
        # The deployment's own model's name: nothing answers, and its stored vectors
        # (from the onnx default) stay in one space with what this run stores.
        "MEMLANE_MEMORY__EMBEDDING__MODEL": DEFAULT_EMBEDDING_MODEL,
        "MEMLANE_MEMORY__EMBEDDING__OLLAMA_URL": f"http://127.0.0.1:{free_port()}",
        "MEMLANE_MEMORY__EMBEDDING__TIMEOUT_MS": "500",
        "MEMLANE_MEMORY__EMBEDDING__MAX_RETRIES": "0",
    }

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([MEMLANE, *args], env=down, cwd=REPO, capture_output=True,
                              text=True, timeout=120)

    return cli


def shoot(driver: WebDriver, name: str) -> None:
    """A full-page screenshot into MEMLANE_UI_SCREENSHOTS, when it is set."""
    if not SCREENSHOTS:
        return
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.execute_cdp_cmd(  # type: ignore[attr-defined]
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    try:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(SCREENSHOTS) / f"{name}.png"))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})  # type: ignore[attr-defined]


def replaced(page: WebElement) -> Callable[[WebDriver], bool]:
    """Whether the page `page` belonged to is gone. Chromium answers an element of a page
    being swapped out with "stale element" or, mid-swap, "Node ... does not belong to the
    document": both mean the old page is gone (selenium's staleness_of knows only the first)."""

    def gone(_: WebDriver) -> bool:
        try:
            page.is_enabled()
        except WebDriverException:
            return True
        return False

    return gone


def click_and_load(driver: WebDriver, element_id: str) -> None:
    """Click a button that posts or navigates, and wait until the next page replaced this one."""
    page = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.ID, element_id).click()
    WebDriverWait(driver, 30).until(replaced(page))


def text_of(driver: WebDriver, selector: str) -> str:
    return str(driver.find_element(By.CSS_SELECTOR, selector).text)


def test_the_inspector_in_chromium(deployment: Deployment, browser: WebDriver) -> None:
    token = deployment.token("demo", "alice")
    ids = seed(deployment, token)
    ui = f"{deployment.base_url}/ui"

    # Sign-in: every page sends a stranger to the form; the key goes into a cookie.
    browser.get(f"{ui}/memories")
    assert browser.current_url == f"{ui}/sign-in"
    shoot(browser, "sign-in")
    browser.find_element(By.ID, "token").send_keys(token)
    click_and_load(browser, "sign-in")
    assert browser.current_url == f"{ui}/memories"
    session = next(c for c in browser.get_cookies() if c["name"] == "memlane_ui")
    assert session["httpOnly"] is True and session["sameSite"] == "Strict"
    assert session["path"] == "/ui" and session["secure"] is False  # plain http: no Secure
    assert "memlane_ui" not in browser.execute_script("return document.cookie")

    # The list, filtered and searched.
    rows = browser.find_elements(By.CSS_SELECTOR, "#memory-list tbody tr")
    assert len(rows) == len(IMPORTED) + len(UNEMBEDDED) + len(WRITTEN)
    shoot(browser, "memories")
    browser.find_element(By.CSS_SELECTOR, "#type option[value='preference']").click()
    click_and_load(browser, "apply")
    listed = text_of(browser, "#memory-list")
    assert "window seats" in listed and "dark mode" in listed and "Berlin" not in listed
    browser.get(f"{ui}/memories?tag=family")
    assert "Ana" in text_of(browser, "#memory-list") and "coffee" not in browser.page_source
    browser.get(f"{ui}/memories")
    browser.find_element(By.ID, "q").send_keys("where does my sister live?")
    click_and_load(browser, "apply")
    first = browser.find_elements(By.CSS_SELECTOR, "#memory-list tbody tr")[0]
    assert "Ana lives in Porto" in first.text
    shoot(browser, "search")

    # A memory in full: its neighbourhood shows what superseded it.
    berlin = ids["I live in Berlin"]
    browser.get(f"{ui}/memories/{berlin}?depth=2")
    assert "I live in Berlin" in text_of(browser, "#content")
    graph = browser.find_element(By.ID, "graph")
    assert graph.find_elements(By.CSS_SELECTOR, "line.edge-supersedes")
    assert graph.find_elements(By.CSS_SELECTOR, "g.superseded")
    shoot(browser, "graph")

    # Edit, pin.
    lisbon = ids["Last month I moved to Lisbon"]
    browser.get(f"{ui}/memories/{lisbon}")
    content = browser.find_element(By.ID, "edit-content")
    content.clear()
    content.send_keys("I moved to Lisbon in March")
    tags = browser.find_element(By.ID, "edit-tags")
    tags.clear()
    tags.send_keys("home, moves")
    click_and_load(browser, "save")
    assert text_of(browser, "#done") == "Saved."
    assert text_of(browser, "#content") == "I moved to Lisbon in March"
    click_and_load(browser, "pin")
    assert text_of(browser, "#done") == "Pinned."
    history = browser.find_element(By.ID, "history")  # the edit as a word diff, newest first
    assert [e.text for e in history.find_elements(By.CSS_SELECTOR, ".event")][:2] == [
        "pinned", "updated"]
    assert "in March" in [e.text for e in history.find_elements(By.TAG_NAME, "ins")]
    shoot(browser, "memory")
    with httpx.Client(base_url=deployment.base_url, timeout=30) as http:
        stored = http.get(f"/v1/memories/{lisbon}", headers={"Authorization": f"Bearer {token}"})
    assert stored.json()["content"] == "I moved to Lisbon in March"
    assert stored.json()["tags"] == ["home", "moves"] and stored.json()["pinned"] is True

    # Facts and the profile; a score set through the form.
    click_and_load(browser, "nav-facts")
    profile = text_of(browser, "#profile")
    assert "penicillin" in profile and "Lisbon" in profile and "nurse" in profile
    row = browser.find_element(By.XPATH, "//tr[contains(., 'nurse')]")
    score = row.find_element(By.CSS_SELECTOR, "input.score-input")
    score.clear()
    score.send_keys("10")
    page = browser.find_element(By.TAG_NAME, "html")
    row.find_element(By.CSS_SELECTOR, "button").click()
    WebDriverWait(browser, 30).until(replaced(page))
    assert text_of(browser, "#done") == "Score saved."
    assert "score 10" in text_of(browser, "#profile-core")
    shoot(browser, "facts")

    # Statistics.
    browser.get(f"{ui}/stats")
    assert text_of(browser, "#total") == str(len(IMPORTED) + len(UNEMBEDDED) + len(WRITTEN))
    assert text_of(browser, "#waiting").startswith(str(len(UNEMBEDDED)))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#curves polyline")) == 5
    assert browser.find_elements(By.CSS_SELECTOR, "#curves circle.dot")
    shoot(browser, "stats")

    # A forged write: the session cookie without the form's token is refused...
    coffee = ids["I love coffee in the morning"]
    cookies = {c["name"]: c["value"] for c in browser.get_cookies()}
    forged = httpx.post(f"{ui}/memories/{coffee}/delete", data={"confirm": "yes"},
                        cookies=cookies)
    assert forged.status_code == 403
    # ...and a page of another site posting a form gets no cookie at all (SameSite=Strict).
    browser.get("data:text/html,<form method=post action='" + f"{ui}/memories/{coffee}/delete"
                + "'><input name=confirm value=yes></form>")
    page = browser.find_element(By.TAG_NAME, "html")
    browser.execute_script("document.forms[0].submit()")
    WebDriverWait(browser, 30).until(replaced(page))
    assert browser.current_url == f"{ui}/sign-in"  # it arrived without the session
    browser.get(f"{ui}/memories/{coffee}")
    assert "I love coffee" in text_of(browser, "#content")

    # Delete for real, then sign out.
    browser.find_element(By.ID, "confirm-delete").click()
    click_and_load(browser, "delete")
    assert text_of(browser, "#done") == "Deleted."
    assert "I love coffee in the morning" not in text_of(browser, "#memory-list")
    click_and_load(browser, "sign-out")
    assert browser.current_url == f"{ui}/sign-in"
    browser.get(f"{ui}/stats")
    assert browser.current_url == f"{ui}/sign-in"
