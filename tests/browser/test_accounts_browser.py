"""A person in a real Chromium: sign up, log out, log in, change language, see the profile."""

from __future__ import annotations

import os

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# Playwright's sync API runs an event loop in this thread; the live server's ORM is in its own.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def page(chromium_path: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium_path,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
            ],
        )
        page = browser.new_page(locale="es-ES")
        page.set_default_timeout(15_000)
        yield page
        browser.close()


def test_sign_up_log_out_log_in_switch_language_profile(page, live_server) -> None:
    url = live_server.url
    page.goto(url + "/")
    page.get_by_role("link", name="Crear cuenta").first.click()
    page.get_by_label("Nombre de usuario").fill("Lola_21")
    page.get_by_label("Contraseña", exact=True).fill("mesa-verde-2026")
    page.get_by_label("Repite la contraseña").fill("mesa-verde-2026")
    page.get_by_role("button", name="Crear cuenta").click()
    page.get_by_text("¡Bienvenido a Tapete, Lola_21!").wait_for()

    page.get_by_role("button", name="Salir").click()
    page.get_by_text("Has cerrado la sesión.").wait_for()

    page.get_by_role("link", name="Entrar").first.click()
    page.get_by_label("Nombre de usuario").fill("lola_21")
    page.get_by_label("Contraseña").fill("mesa-verde-2026")
    page.get_by_role("button", name="Entrar").click()
    page.get_by_test_id("nav-profile").wait_for()

    page.select_option("#language-select", "en")
    page.get_by_role("button", name="Cambiar").click()
    page.get_by_role("heading", name="Live card games").wait_for()

    page.get_by_test_id("nav-profile").click()
    assert page.get_by_test_id("profile-username").inner_text() == "Lola_21"
    page.get_by_role("heading", name="Profile").wait_for()
    assert page.get_by_test_id("profile-language").inner_text() == "English"  # the switch is remembered
    page.screenshot(path=os.environ.get("SCREENSHOT_DIR", "/tmp") + "/profile.png")
