"""The fleet page in headless Chromium (Playwright driving Debian's chromium, as the display's browser test): one
card per table, the finished table greyed out as offline, the playing one online with its ruleset and hand."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import sync_playwright

from tests.controller.fleet_harness import Broker, fleet_of_two
from tests.controller.test_display_browser import CHROMIUM, CHROMIUM_ARGS, _require_chromium


@pytest.mark.slow
def test_the_fleet_page_draws_a_card_per_table_in_chromium(tmp_path):
    _require_chromium()
    with Broker(tmp_path) as broker, fleet_of_two(broker, tmp_path) as (http, fleet):
        assert fleet.stdout is not None
        json.loads(fleet.stdout.readline())  # the page is up
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(f"http://{http}/")
            page.wait_for_function("document.querySelectorAll('.card').length === 2", timeout=15000)
            page.wait_for_function(
                "document.querySelector('[data-table=west]').textContent.includes('hand')", timeout=15000
            )
            east = page.locator("[data-table=east]")
            west = page.locator("[data-table=west]")
            assert "offline" in east.get_attribute("class")
            assert east.locator(".badge").text_content() == "offline"
            assert west.locator(".badge").text_content() == "online"
            assert west.text_content().startswith("west") and "mcr · hand" in west.text_content()
            assert page.locator("#count").text_content() == "2 tables, 1 online"
            browser.close()
