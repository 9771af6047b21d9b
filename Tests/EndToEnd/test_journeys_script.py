"""A script's journey, as curl would make it: no browser, no Accept header unless it wants one, and
nothing learnt from the source. It reads the to-do page as JSON, follows `next` links to the end
(each must answer JSON), adds a to-do and follows the insert's `Location`, ticks it and sees its
typed `done` flip, and deletes it (issue 20, item 10)."""
import json
import urllib.error
import urllib.request



def fetch(url, method="GET", body=None):
    """One request as `curl` sends it (JSON body when given); returns (status, headers, text)."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if body is not None else {}
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def get_json(url):
    """GET `url` without asking for JSON: the URL alone must lead to JSON."""
    status, headers, text = fetch(url)
    assert status == 200, f"{url}: {status} {text[:200]}"
    assert headers["Content-Type"].startswith("application/json"), f"{url} answered {headers['Content-Type']}: {text[:120]}"
    return json.loads(text)


def section(page, section_id):
    return next(s for s in page["sections"] if s["id"] == section_id)


def test_a_script_reads_pages_every_row_adds_ticks_and_deletes_a_todo_by_following_links(server):
    base = server

    # Read the list three rows at a time, following `next` links only.
    page = get_json(base + "/pages/todo.json?limit=3")
    todos = section(page, "todos")
    assert todos["rowCount"] == 8
    assert todos["next"], "the first three of eight rows, and no next link"
    assert page["next"] == todos["next"], "the top level says more rows follow: its paged section's next"
    ids = [row["id"] for row in todos["rows"]]
    link = page["next"]
    hops = 0
    while link:
        hops += 1
        assert hops < 10, "the next links go round in circles"
        more = get_json(base + link)
        assert more["id"] == "todos"
        ids += [row["id"] for row in more["rows"]]
        link = more["next"]
    assert hops == 2
    assert ids == [f"todo-{n}" for n in range(1, 9)], ids

    # State as typed fields beside the display text.
    first = get_json(base + "/pages/todo.json")
    rows = {row["id"]: row for row in section(first, "todos")["rows"]}
    for row in rows.values():
        assert isinstance(row["done"], bool)
        assert row["done"] == (row["subtitle"] == "done") == (row.get("accessory") == "checkmark")
    progress = section(first, "summary")["rows"][0]
    done = sum(row["done"] for row in rows.values())
    assert (progress["completed"], progress["total"]) == (done, 8)
    assert progress["detail"] == f"{int(progress['progress'] * 100 + 0.5)} %"
    assert progress["progress"] == done * 100 // 8 / 100

    # Add a to-do: 201 with its id, and Location leads to the row's JSON.
    status, headers, text = fetch(base + "/pages/todo/sections/todos/rows", "POST", {"title": "Pack the tent"})
    assert status == 201, text
    answer = json.loads(text)
    new_id = answer["id"]
    assert new_id == "todo-9"
    location = headers["Location"]
    assert location == f"/pages/todo/rows/{new_id}.json"
    row = get_json(base + location)
    assert (row["id"], row["title"], row["done"]) == (new_id, "Pack the tent", False)
    assert section(get_json(base + "/pages/todo.json"), "summary")["rows"][0]["total"] == 9

    # Tick it: `done` flips, and the progress counts it.
    status, _, text = fetch(base + f"/pages/todo/rows/{new_id}/select", "POST", {})
    assert status == 200, text
    assert json.loads(text)["ok"] is True
    row = get_json(base + location)
    assert row["done"] is True and row["subtitle"] == "done"
    progress = section(get_json(base + "/pages/todo.json"), "summary")["rows"][0]
    assert (progress["completed"], progress["total"]) == (done + 1, 9)
    assert progress["progress"] == (done + 1) * 100 // 9 / 100

    # Delete it: its URL is gone, and the list is as it was.
    status, _, text = fetch(base + f"/pages/todo/rows/{new_id}", "DELETE")
    assert status == 200, text
    status, headers, text = fetch(base + location)
    assert status == 404, text
    assert headers["Content-Type"].startswith("application/json"), "a JSON URL's error is JSON too"
    assert [row["id"] for row in section(get_json(base + "/pages/todo.json"), "todos")["rows"]] == ids
