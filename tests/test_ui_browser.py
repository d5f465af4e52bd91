"""``localmem ui`` in a real browser: the real command serves a real file
(``python -m localmem ui --no-open --port 0`` in a subprocess, uvicorn on
127.0.0.1), Debian's chromium (driven by Playwright through ``executable_path``:
no browser is downloaded) searches, clicks, fills, accepts and dismisses the
confirmations, and the file is then read through the Python API.

Skipped when chromium or Playwright is absent, except under CI (``.ci/run``
installs both), where that fails. ``LOCALMEM_UI_SCREENSHOTS=DIR`` saves the
pages' screenshots there (the README's are made so: see its "A page to see and
correct it").
"""

from __future__ import annotations

import datetime
import itertools
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from localmem import MemoryStore

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
HOSTILE = "<script>window.pwned = 1</script> <img src=x onerror=\"window.pwned = 2\"> <svg onload=window.pwned=3>"
STARTUP_SECONDS = 60


def _tools() -> None:
    """Skip (or, under CI, fail) without the browser or its driver."""
    missing = []
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        missing.append("Debian's chromium (apt-get install chromium)")
    for module in ("playwright", "starlette"):
        try:
            __import__(module)
        except ImportError:
            missing.append(f"the Python package {module} (the test extra)")
    if missing:
        if os.environ.get("CI"):
            pytest.fail("CI must install " + " and ".join(missing) + " (.ci/run does)")
        pytest.skip("not installed: " + ", ".join(missing))


def fill(path: Path) -> dict[str, object]:
    """An assistant's memory, as the screenshots show it: written by a clock that
    moves a minute a call, so the order of activity is the order written."""
    ticks = itertools.count()

    def clock() -> datetime.datetime:
        return datetime.datetime(2026, 3, 2, 9, 0, tzinfo=datetime.timezone.utc) + datetime.timedelta(
            minutes=next(ticks)
        )

    with MemoryStore(path, config={"offline": True}, clock=clock) as store:
        meds = store.create_session(model="llama3.2", title="Grandma's medication")
        allergy = store.add_message(meds.id, "user", "Grandma is allergic to penicillin.")
        store.add_message(meds.id, "assistant", "Noted: no penicillin-class antibiotics for her.")
        store.add_message(meds.id, "user", "She takes lisinopril 10 mg every morning.")
        store.add_message(meds.id, "user", "She no longer takes lisinopril.")
        store.set_goal(meds.id, "Keep Grandma's medication list current")
        trip = store.create_session(model="llama3.2", title="Trip to Leeds")
        store.add_messages(trip.id, [
            {"role": "user", "text": "Find me a train to Leeds on Friday morning."},
            {"role": "assistant", "text": "The 9:14 from King's Cross arrives at 11:26."},
            {"role": "tool", "text": HOSTILE},
            {"role": "user", "text": "Book the 9:14 and a hotel near the station."},
        ])
        store.pin(trip.id, "Travel on Friday; back on Sunday evening.")
        store.set_goal(trip.id, "Book the Leeds trip")
        store.checkpoint(trip.id)
        hostile = store.get_messages(trip.id)[2]
        return {"meds": meds.id, "trip": trip.id, "allergy": allergy.id, "hostile": hostile.id}


@pytest.fixture
def served(db_path: Path) -> Iterator[tuple[str, dict[str, object]]]:
    """The URL ``localmem ui`` printed for a filled file, while it serves."""
    _tools()
    ids = fill(db_path)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "localmem", "ui", "--db", str(db_path), "--no-open", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    first: list[str] = []
    reader = threading.Thread(target=lambda: first.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(STARTUP_SECONDS)
    try:
        assert first and first[0].startswith("localmem ui: open http://127.0.0.1:"), (
            first, proc.poll(), proc.stderr.read() if proc.poll() is not None else "",
        )
        yield first[0].split("open ", 1)[1].strip(), ids
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl-C
        try:
            out, err = proc.communicate(timeout=STARTUP_SECONDS)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
    assert proc.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err


def test_the_page_in_chromium(served: tuple[str, dict[str, object]], db_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, ids = served
    origin = url.split("/", 3)[:3]
    origin = "/".join(origin)
    shots = os.environ.get("LOCALMEM_UI_SCREENSHOTS")
    requested: list[str] = []
    dialogs: list[str] = []
    answers = iter([True, False, True])  # accept, dismiss, accept

    def on_dialog(dialog) -> None:
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.accept() if next(answers) else dialog.dismiss()

    def shot(name: str) -> None:
        if shots:
            page.screenshot(path=str(Path(shots) / f"ui-{name}.png"))

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 960, "height": 640})
            context.on("request", lambda request: requested.append(request.url))
            page = context.new_page()
            page.on("dialog", on_dialog)
            errors: list[str] = []
            page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)

            # Sessions, newest activity first, with their counts.
            page.goto(url)
            rows = page.locator("table.sessions tbody tr")
            expect(rows).to_have_count(2)
            expect(rows.nth(0)).to_contain_text("Trip to Leeds")
            expect(rows.nth(1)).to_contain_text("Grandma's medication")
            expect(rows.nth(0).locator("td.n").first).to_have_text("4")
            shot("sessions")

            # Search: the matching message, its session and date.
            page.get_by_role("searchbox", name="Search").fill("train Leeds")
            page.get_by_role("button", name="Search").click()
            expect(page.locator(".hit").first).to_contain_text("Trip to Leeds")
            expect(page.locator(".hit").first).to_contain_text(" UTC")
            shot("search")

            # A session: stored markup reads as text and runs nothing.
            page.locator("table.sessions").get_by_role("link", name="Trip to Leeds").click()
            expect(page.get_by_role("heading", name="Trip to Leeds")).to_be_visible()
            expect(page.get_by_text(HOSTILE)).to_be_visible()
            assert page.evaluate("window.pwned") is None
            expect(page.locator("main img, main svg")).to_have_count(0)
            expect(page.locator(".goal")).to_contain_text("Book the Leeds trip")
            expect(page.locator(".checkpoint")).to_contain_text("Goal: Book the Leeds trip")
            expect(page.get_by_text("Travel on Friday; back on Sunday evening.")).to_be_visible()
            shot("session")

            # Forget a message: the confirmation accepted, it is gone from the page and the file.
            hostile = page.locator(f"#m{ids['hostile']}")
            hostile.get_by_role("button", name="Forget").click()
            expect(page.get_by_text("The message was forgotten")).to_be_visible()
            expect(page.locator(f"#m{ids['hostile']}")).to_have_count(0)
            with MemoryStore(db_path) as store:
                assert ids["hostile"] not in [m.id for m in store.get_messages(str(ids["trip"]))]
                assert store.search("pwned") == []

            # The confirmation dismissed: nothing is sent, nothing changes.
            first = page.locator(".message").first
            first_id = first.get_attribute("id")
            first.get_by_role("button", name="Forget").click()
            expect(page.locator(f"#{first_id}")).to_have_count(1)
            with MemoryStore(db_path) as store:
                assert len(store.get_messages(str(ids["trip"]))) == 3

            # What I remember about you: where each fact came from; edit one, remove one.
            page.get_by_role("link", name="What I remember about you").click()
            allergy = page.locator(".fact", has_text="Grandma is allergic to penicillin.")
            expect(allergy).to_contain_text("Grandma's medication")
            expect(allergy.locator("blockquote")).to_have_text("Grandma is allergic to penicillin.")
            expect(page.get_by_text("She takes lisinopril 10 mg")).to_have_count(0)
            shot("facts")
            box = allergy.get_by_role("textbox")
            box.fill("Grandma is allergic to penicillin and to amoxicillin.")
            allergy.get_by_role("button", name="Save").click()
            expect(page.get_by_text("Saved.")).to_be_visible()
            with MemoryStore(db_path) as store:
                facts = [p.content for p in store.get_pins(None)]
            assert "Grandma is allergic to penicillin and to amoxicillin." in facts
            assert "Grandma is allergic to penicillin." not in facts

            page.get_by_role("link", name="Show 1 superseded fact").click()
            old = page.locator(".fact.superseded")
            expect(old.locator("p.text")).to_have_text("She takes lisinopril 10 mg every morning.")
            expect(old).to_contain_text("no longer holds")
            current = page.locator(".fact.current", has_text="no longer takes lisinopril")
            current.get_by_role("button", name="Remove").click()
            expect(page.get_by_text("Removed: it is gone from the file.")).to_be_visible()
            with MemoryStore(db_path) as store:
                left = [p.content for p in store.get_pins(None, history=True)]
            assert "She no longer takes lisinopril." not in left

            # Without the launch secret, the server refuses.
            refused = page.goto(origin + "/")
            assert refused is not None and refused.status == 403
        finally:
            browser.close()

    assert [d.split(":")[0] for d in dialogs] == ["confirm", "confirm", "confirm"]
    assert all(u.startswith(origin + "/") for u in requested), requested  # no CDN, nothing outside
    assert not [e for e in errors if "Content Security Policy" in e], errors
