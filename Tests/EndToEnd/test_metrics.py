"""`/metrics` from the real `tablepages serve`: on by default, in Prometheus's text format, counting
a write to the examples' database; absent with `--no-metrics`."""
import re
import urllib.error
import urllib.request

from conftest import post, start_server, stop_server

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (\S+)$')


def scrape(base):
    """The samples of `/metrics` as {line's series: value}; every line must be a comment or a sample."""
    with urllib.request.urlopen(base + "/metrics", timeout=5) as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
        text = response.read().decode()
    samples = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = SAMPLE.match(line)
        assert match, f"not a sample line: {line!r}"
        series, value = line.rsplit(" ", 1)
        samples[series] = float(value)
    return samples


def test_metrics_count_requests_and_store_writes_by_default(tmp_path):
    process, base = start_server(tmp_path)
    try:
        before = scrape(base)
        status, _ = post(base + "/pages/todo/rows/todo-1/select")
        assert status == 200
        after = scrape(base)
        selects = 'tablepages_http_requests_total{method="POST",route="/pages/:page/rows/:row/select",status="200"}'
        assert after[selects] - before.get(selects, 0) == 1
        writes = 'tablepages_store_operation_duration_seconds_count{operation="write"}'
        assert after[writes] - before.get(writes, 0) == 1
        assert after["tablepages_live_patches_published_total"] - before["tablepages_live_patches_published_total"] == 1
        assert not any("todo-1" in series for series in after), "a row id became a label"
    finally:
        stop_server(process)


def test_no_metrics_means_no_metrics_route(tmp_path):
    process, base = start_server(tmp_path, "--no-metrics")
    try:
        try:
            urllib.request.urlopen(base + "/metrics", timeout=5)
            raise AssertionError("/metrics answered with --no-metrics")
        except urllib.error.HTTPError as error:
            assert error.code == 404
        with urllib.request.urlopen(base + "/pages/todo.json", timeout=5) as response:
            assert response.status == 200
    finally:
        stop_server(process)
