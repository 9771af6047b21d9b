"""`tablepages serve --title` names the site in the browser: the index's title and heading and
every page's bar; without it the site is called TablePages."""
import json
import subprocess
import urllib.request

from conftest import BINARY, start_server, stop_server
from selenium.webdriver.common.by import By


def fetch(url):
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode()


def test_title_option_names_the_index_and_every_pages_bar(tmp_path, browser):
    process, base = start_server(tmp_path, "--title", "Ada's <library>")
    try:
        browser.get(base + "/")
        assert browser.title == "Ada's <library>"
        assert browser.find_element(By.CSS_SELECTOR, "h1").text == "Ada's <library>"
        assert browser.find_element(By.CSS_SELECTOR, ".tp-bar .tp-home").text == "Ada's <library>"
        browser.get(base + "/pages/checklist")
        assert browser.find_element(By.CSS_SELECTOR, ".tp-bar .tp-home").text == "Ada's <library>"
        assert browser.title == "Checklist"
        assert json.loads(fetch(base + "/.json"))["title"] == "Ada's <library>"
    finally:
        stop_server(process)


def test_without_the_option_the_site_is_called_tablepages(tmp_path):
    process, base = start_server(tmp_path)
    try:
        index = fetch(base + "/")
        assert "<title>TablePages</title>" in index and "<h1>TablePages</h1>" in index
        assert json.loads(fetch(base + "/.json"))["title"] == "TablePages"
    finally:
        stop_server(process)


def test_help_explains_the_title_option():
    help_text = subprocess.run([BINARY, "serve", "--help"], stdout=subprocess.PIPE, text=True, check=True).stdout
    assert "--title" in help_text and "default: TablePages" in help_text
