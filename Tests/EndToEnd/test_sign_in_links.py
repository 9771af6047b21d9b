"""Sign-in links sign one browser in, once, before they expire, on any instance sharing the
credentials file (`tablepages secret link` makes more); and an access token works on the very first
request after `tablepages token create` printed it, while a revoked one stops within 0.5 s."""
import subprocess
import time

from conftest import BINARY, logged_sign_in_url, new_sign_in_path, sign_in, start_server, stop_server, wait_until
from test_access_identity import request, tablepages


def test_a_link_signs_in_once_on_any_instance_sharing_the_credentials(tmp_path):
    one_directory, other_directory = tmp_path / "one", tmp_path / "other"
    one_directory.mkdir()
    other_directory.mkdir()
    credentials = str(one_directory / "tablepages-credentials.sqlite")
    one, one_base = start_server(one_directory, anonymous_writes=False)
    other, other_base = start_server(other_directory, "--credentials", credentials, anonymous_writes=False)
    try:
        # The link the server logged signs in once, here; then it is refused, here and there.
        logged = logged_sign_in_url(one_directory)
        path = logged[logged.index("/-/signin"):]
        status, cookie = sign_in(one_base + path)
        assert status == 303 and cookie.startswith("tablepages_session=")
        for base in (one_base, other_base):
            status, headers, text = request("GET", base + path, headers={"Accept": "text/html"})
            assert status == 403 and "Set-Cookie" not in headers, status
            assert "used already" in text and "tablepages secret link" in text, text
        # `secret link` makes another, good on the other instance, once.
        fresh = new_sign_in_path(one_directory)
        assert fresh != path
        assert sign_in(other_base + fresh)[0] == 303
        assert sign_in(one_base + fresh) == (403, None)
        log = open(one_directory / "server.log").read()
        assert "a sign-in link was used again and refused" in log, log[-2000:]
    finally:
        stop_server(one)
        stop_server(other)


def test_a_link_expires_and_rotating_the_secret_voids_the_unused_ones(tmp_path):
    process, base = start_server(tmp_path, "--sign-in-link-lifetime", "1", anonymous_writes=False)
    try:
        logged = logged_sign_in_url(tmp_path)
        unused = new_sign_in_path(tmp_path, "--sign-in-link-lifetime", "600")
        time.sleep(2.1)
        status, _, text = request("GET", base + logged[logged.index("/-/signin"):], headers={"Accept": "text/html"})
        assert status == 403 and "expired" in text, text
        tablepages(tmp_path, "secret", "rotate")
        # Within the refresh interval the server has the new secret: a link it signs works, and the
        # link made before the rotation, never used, is not valid any more.
        fresh = new_sign_in_path(tmp_path)
        assert wait_until(lambda: sign_in(base + fresh)[0] == 303, 3.0)
        status, _, text = request("GET", base + unused, headers={"Accept": "text/html"})
        assert status == 403 and "not valid" in text, text
    finally:
        stop_server(process)
    help_text = subprocess.run([BINARY, "serve", "--help"], capture_output=True, text=True, timeout=30).stdout
    assert "--sign-in-link-lifetime" in help_text
    refused = subprocess.run([BINARY, "secret", "link", "--sign-in-link-lifetime", "0"], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert refused.returncode != 0 and "--sign-in-link-lifetime" in refused.stderr


def test_a_token_works_on_its_first_request_and_a_revoked_one_stops_within_the_bound(tmp_path):
    process, base = start_server(tmp_path, anonymous_writes=False)
    try:
        for attempt in range(5):
            token = tablepages(tmp_path, "token", "create", "--name", f"fresh-{attempt}", "--write")[-1]
            # At once: no waiting for the server's next re-read of the credentials.
            status, _, text = request("POST", base + "/pages/todo/rows/nope/select", "{}", headers={"Authorization": "Bearer " + token})
            assert status == 404, (attempt, status, text)
        tablepages(tmp_path, "token", "revoke", "fresh-4")
        revoked_at = time.monotonic()
        assert wait_until(lambda: request("POST", base + "/pages/todo/rows/nope/select", "{}", headers={"Authorization": "Bearer " + token})[0] == 401, 2.0)
        assert time.monotonic() - revoked_at < 1.0, "the revocation took longer than its documented 0.5 s (and slack)"
    finally:
        stop_server(process)
