"""The installable app (PF-35) in a real Chromium: a valid manifest with icons, an active
service worker controlling the page, and the offline page when the network is cut."""

from __future__ import annotations

import os

import pytest

from tests.browser.test_accounts_browser import page  # noqa: F401  (the Chromium page fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

READ_MANIFEST = """
async () => {
  const href = document.querySelector('link[rel=manifest]').href;
  const response = await fetch(href);
  const manifest = await response.json();
  const icons = [];
  for (const icon of manifest.icons) {
    const r = await fetch(new URL(icon.src, href));
    const blob = await r.blob();
    let size = null;
    if (icon.type === "image/png") {
      const bitmap = await createImageBitmap(blob);
      size = `${bitmap.width}x${bitmap.height}`;
    }
    icons.push({ ...icon, status: r.status, contentType: blob.type, size });
  }
  return { type: response.headers.get("content-type"), manifest, icons };
}
"""


def test_manifest_is_valid_with_png_icons_for_install(page, live_server) -> None:  # noqa: F811
    page.goto(live_server.url + "/")

    found = page.evaluate(READ_MANIFEST)

    manifest = found["manifest"]
    assert found["type"].startswith("application/manifest+json")
    assert manifest["name"] == "Tapete" and manifest["short_name"] == "Tapete"
    assert manifest["display"] == "standalone" and manifest["start_url"].startswith("/")
    assert manifest["scope"] == "/" and manifest["lang"] == "es"
    assert all(icon["status"] == 200 for icon in found["icons"])
    pngs = {(icon["size"], icon["purpose"]) for icon in found["icons"] if icon["type"] == "image/png"}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= pngs
    assert page.locator('meta[name="theme-color"]').get_attribute("content") == manifest["theme_color"]


def test_service_worker_is_active_and_the_offline_page_shows_without_network(page, live_server) -> None:  # noqa: F811
    context = page.context  # a new context per test: no worker or cache left from another test
    page.goto(live_server.url + "/")
    state = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active && r.active.state)")
    assert state in {"activating", "activated"}
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    # Chromium's own verdict, as its install button uses it (PF-35); a Playwright context is an
    # incognito profile, where Chromium never offers to install, so that one reason is expected
    errors = context.new_cdp_session(page).send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    page.wait_for_function(
        "caches.keys().then(async (names) => names.length === 1 && "
        "(await (await caches.open(names[0])).match('/sin-conexion/')) !== undefined)"
    )

    context.set_offline(True)
    page.goto(live_server.url + "/liga/")

    page.get_by_test_id("offline-page").wait_for()
    assert page.get_by_role("heading", level=1).inner_text() == "Sin conexión"
    header = "getComputedStyle(document.querySelector('.site-header')).display"
    assert page.evaluate(header) == "flex"  # the style sheet came from the cache

    context.set_offline(False)
    page.goto(live_server.url + "/liga/")
    page.get_by_role("heading", name="Liga semanal").wait_for()  # back online: the real page again
