// TablePages browser client: keeps an open page live. No build step, no inline script (the CSP
// forbids it). It follows the page's events (over one stream for all the browser's tabs), applies each patch's ops atomically by
// data-row / data-section, refetches on `reset`, sends selections and actions with fetch, and
// loads more rows as a section's "More rows" link nears the viewport, and gives each row one tab
// stop (its other controls are reached with the arrow keys).
//
// A section may be loaded only in part (it ends with a "More rows" link). A patch never places a
// row outside the loaded part: an insert or move whose neighbour is not loaded is left to the
// section's counts (`section-next`), which the link shows as "N new rows — show".
"use strict";

(() => {
  // A value typed or picked in a field of an edit or insert form means that value: the field's
  // NULL box is unticked, or the form would send both and NULL would win over what was typed.
  const untickNull = (event) => {
    const field = event.target.closest?.(".tp-edit-field");
    if (!field || event.target.closest(".tp-edit-null")) return;
    const box = field.querySelector(".tp-edit-null input[type=checkbox]");
    if (box) box.checked = false;
  };
  // A picker tells a pick by `change` (a script's pick by nothing else).
  document.addEventListener("input", untickNull);
  document.addEventListener("change", untickNull);

  // Whether a person left a field of an edit form as it came: each control still shows the
  // value it was made with.
  const untouched = (field) => [...field.querySelectorAll("input, select, textarea")].every((control) => {
    if (control.type === "checkbox") return control.checked === control.defaultChecked;
    if (control instanceof HTMLSelectElement) return [...control.options].every((option) => option.selected === option.defaultSelected);
    return control.value === control.defaultValue;
  });
  // Saving a row's form sends only the columns the person changed: a control may not give back
  // a value exactly as it came (a box sends its line breaks as CR LF), and a column nobody
  // touched must keep what it holds, byte for byte.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches?.("form.tp-edit-form") || !form.querySelector("input[name=_version]")) return;
    const fields = [...form.querySelectorAll(".tp-edit-field")];
    if (fields.length > 0 && fields.every(untouched)) {
      // Nothing changed, nothing written: back to the row.
      event.preventDefault();
      location.assign(form.action.replace(/\/-\/update$/, ""));
      return;
    }
    for (const field of fields) {
      if (!untouched(field)) continue;
      for (const control of field.querySelectorAll("input, select, textarea")) control.disabled = true;
    }
  });
  // Back to the form from the browser's cache: its fields are the person's again.
  window.addEventListener("pageshow", () => {
    for (const control of document.querySelectorAll(".tp-edit-form .tp-edit-field :disabled")) control.disabled = false;
  });

  const page = document.querySelector(".tp-page");
  if (!page) return;
  const indicator = document.querySelector(".tp-live");
  let retryTimer = null;

  const table = () => page.querySelector(".tk-table");
  const version = () => table()?.dataset.version ?? "";
  // Patches carry raw row and section ids; their elements' DOM ids encode them as TableKit's
  // PageContract does (PageContract+DOMIDs.swift), which this must mirror: ASCII letters, digits
  // and "-" stay, every other UTF-8 byte becomes "_" and two uppercase hex digits, and the "-" of
  // a trailing "-header" is encoded too.
  const utf8 = new TextEncoder();
  function domID(prefix, id) {
    const bytes = utf8.encode(id);
    const end = id.endsWith("-header") ? bytes.length - 7 : bytes.length;
    let out = prefix;
    for (let index = 0; index < end; index += 1) {
      const byte = bytes[index];
      const kept = (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x2d;
      out += kept ? String.fromCharCode(byte) : `_${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
    return end < bytes.length ? `${out}_2Dheader` : out;
  }
  const rowElement = (id) => document.getElementById(domID("row-", id));
  const sectionElement = (id) => document.getElementById(domID("section-", id));

  function setState(state) {
    if (!indicator) return;
    indicator.dataset.state = state;
    indicator.textContent = state;
  }

  function fragment(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    return template.content.firstElementChild;
  }

  // One tab stop per row, the WAI-ARIA grid pattern's roving tabindex: a row's first control (or
  // the one last focused) takes Tab, its others are reached with the arrow keys (Left and Right,
  // Home and End within the row; Up and Down to the row above or below), so Tab goes from row to
  // row instead of through every control. Without a script every control keeps its tab stop.
  const controlSelector = "a[href], button, input:not([type=hidden]), select, textarea";
  const controlsOf = (row) => [...row.querySelectorAll(controlSelector)].filter((control) => !control.disabled);
  // Rows already given their tab stop; a patch brings new row elements, a loaded page more rows.
  const rovingRows = new WeakSet();
  function rove(root) {
    const rows = root.matches?.(".tk-row") ? [root] : [...(root.querySelectorAll?.(".tk-row") ?? [])];
    for (const row of rows) {
      if (rovingRows.has(row)) continue;
      rovingRows.add(row);
      controlsOf(row).forEach((control, index) => { control.tabIndex = index === 0 ? 0 : -1; });
    }
  }

  function makeTabStop(row, stop) {
    for (const control of controlsOf(row)) control.tabIndex = control === stop ? 0 : -1;
  }

  page.addEventListener("focusin", (event) => {
    const row = event.target.closest?.(".tk-row");
    if (row && page.contains(row) && event.target.matches(controlSelector)) makeTabStop(row, event.target);
  });

  // Whether the caret of a text field is at its `end` ("start" or "end"), so an arrow key leaves
  // the field rather than moving the caret; true for fields without a caret.
  function caretAt(field, end) {
    try {
      if (field.selectionStart === null || field.selectionStart !== field.selectionEnd) return field.selectionStart === null;
      return end === "start" ? field.selectionStart === 0 : field.selectionEnd === field.value.length;
    } catch (error) {
      return true;
    }
  }

  page.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const control = event.target;
    const row = control.closest?.(".tk-row");
    if (!row || !page.contains(row)) return;
    const controls = controlsOf(row);
    const index = controls.indexOf(control);
    if (index < 0) return;
    const field = control.matches("input, textarea, select");
    let target;
    switch (event.key) {
      case "ArrowRight": if (!field || caretAt(control, "end")) target = controls[index + 1]; break;
      case "ArrowLeft": if (!field || caretAt(control, "start")) target = controls[index - 1]; break;
      case "Home": if (!field) target = controls[0]; break;
      case "End": if (!field) target = controls[controls.length - 1]; break;
      case "ArrowDown":
      case "ArrowUp": {
        if (control.matches("textarea, select")) return;
        const rows = [...(table()?.querySelectorAll(".tk-row") ?? [])];
        const step = event.key === "ArrowDown" ? 1 : -1;
        for (let other = rows.indexOf(row) + step; other >= 0 && other < rows.length; other += step) {
          const candidates = controlsOf(rows[other]);
          if (candidates.length === 0) continue;
          target = candidates[Math.min(index, candidates.length - 1)];
          break;
        }
        break;
      }
      default: return;
    }
    if (!target) return;
    event.preventDefault();
    target.focus();
  });

  // Explicit heights come as data attributes (a strict CSP allows no style attributes);
  // applying them through the CSSOM is allowed. New rows get their tab stop here too.
  function applyHeights(root) {
    const elements = root.matches?.("[data-height]") ? [root] : [];
    elements.push(...root.querySelectorAll("[data-height]"));
    for (const element of elements) element.style.minHeight = `${element.dataset.height}px`;
    for (const link of root.querySelectorAll("a.tk-next[data-remaining][data-estimated-row-height]")) sizePlaceholder(link);
    observeNextLinks(root);
    rove(root);
    nameColumns(root);
  }

  // A database table's rows and the names of its columns are one table to assistive technology:
  // each group of rows (the section's, and each group jumped to) starts with a row of column
  // headers, out of sight (the header above the rows shows the names, with their sort links).
  // Without this script each value's cell still says its column's name.
  function nameColumns(root) {
    const names = [...(table()?.querySelectorAll(".tk-db-columns-row > .tk-db-column") ?? [])].map((column) => column.dataset.field ?? "");
    if (names.length === 0) return;
    const groups = root.matches?.(".tk-rows, .tk-jump") ? [root] : [...(root.querySelectorAll?.(".tk-rows, .tk-jump") ?? [])];
    for (const group of groups) {
      if (!group.querySelector(':scope > .tk-row[data-kind="record"]') || group.firstElementChild?.matches(".tk-column-names")) continue;
      const row = document.createElement("div");
      row.className = "tk-column-names";
      row.setAttribute("role", "row");
      for (const name of names) {
        const header = document.createElement("span");
        header.setAttribute("role", "columnheader");
        header.textContent = name;
        row.append(header);
      }
      group.prepend(row);
    }
  }

  // Where an op puts an element: [neighbour, "after" | "before" | "prepend" | "append"], or null
  // when the place lies past the loaded part of a partly loaded container (`partial`).
  function position(op, container, siblingOf, partial) {
    if (op.after !== undefined) {
      if (op.after === null) {
        // After the row of column names, when the rows have one.
        const names = container.firstElementChild?.matches(".tk-column-names") ? container.firstElementChild : null;
        return names ? [names, "after"] : [container, "prepend"];
      }
      const neighbour = siblingOf(op.after);
      if (neighbour) return [neighbour, "after"];
    } else if (op.before !== undefined && op.before !== null) {
      const neighbour = siblingOf(op.before);
      if (neighbour) return [neighbour, "before"];
    }
    return partial ? null : [container, "append"];
  }

  function place(element, container, op, siblingOf, partial = false) {
    const target = position(op, container, siblingOf, partial);
    if (!target) return false;
    target[0][target[1]](element);
    return true;
  }

  function rowsOf(sectionId) {
    return sectionElement(sectionId)?.querySelector(".tk-rows") ?? null;
  }

  const nextLinkOf = (section) => section?.querySelector(":scope > a.tk-next") ?? null;
  const loadedRows = (section) => section.querySelectorAll(":scope > .tk-rows > .tk-row");
  // A section that ends with a "More rows" link holds only its first rows.
  const isPartial = (sectionId) => nextLinkOf(sectionElement(sectionId)) !== null;

  // Placeholders stand for rows not loaded, each row as tall as the estimate, or shorter in a
  // section so long that its rows would pass the height browsers allow an element (near 33
  // million pixels): a scrollbar dragged to the middle of the placeholders is then at the middle
  // row. The "More rows" link stands for the rows after those loaded, up to the first rows the
  // reader jumped to (a `.tk-jump`); a `.tk-gap` for the rows between two of those.
  const maxPlaceholderHeight = 10000000;
  function rowScale(link) {
    const section = link.closest(".tk-section");
    const total = (section ? loadedRows(section).length : 0) + (Number(link.dataset.remaining) || 0);
    return Math.min(Number(link.dataset.estimatedRowHeight) || 44, maxPlaceholderHeight / Math.max(1, total));
  }

  function sizePlaceholder(link) {
    if (!link.dataset.estimatedRowHeight) return;
    const section = link.parentElement;
    const jumped = link.nextElementSibling?.matches(".tk-jump") ? link.nextElementSibling : null;
    const loaded = section ? loadedRows(section).length : 0;
    const covered = jumped ? Math.max(0, Number(jumped.dataset.from) - loaded) : Number(link.dataset.remaining);
    const scale = rowScale(link);
    link.style.minHeight = `${covered * scale}px`;
    for (let gap = jumped?.nextElementSibling; gap; gap = gap.nextElementSibling) {
      if (gap.matches(".tk-gap")) gap.style.minHeight = `${Number(gap.dataset.count) * scale}px`;
    }
  }

  // A section's counts changed (rows inserted or deleted past what is loaded, or anywhere in a
  // database table): the rows still to come are its row count less the rows loaded, and what
  // grew past the loaded part is announced on the link, which loads it when clicked.
  function updateSectionCounts(op) {
    const section = sectionElement(op.section);
    if (!section || typeof op.rowCount !== "number") return;
    section.dataset.rowCount = String(op.rowCount);
    const remaining = Math.max(0, op.rowCount - loadedRows(section).length);
    let link = nextLinkOf(section);
    if (remaining === 0) {
      link?.remove();
      return;
    }
    const before = link ? Number(link.dataset.remaining) || 0 : 0;
    if (!link) {
      link = op.html ? fragment(op.html) : null;
      if (!link) return;
      // Shown, not loaded as it scrolls by: the reader asked for what was loaded.
      link.dataset.manual = "true";
      section.querySelector(":scope > .tk-rows")?.after(link);
    }
    const fresh = Math.min(remaining, Math.max(0, (Number(link.dataset.newRows) || 0) + remaining - before));
    link.dataset.remaining = String(remaining);
    if (fresh > 0) {
      link.dataset.newRows = String(fresh);
      link.textContent = `${fresh} new row${fresh === 1 ? "" : "s"} \u2014 show`;
    } else if (link.dataset.newRows) {
      delete link.dataset.newRows;
      link.textContent = "More rows";
    }
    sizePlaceholder(link);
  }

  // A section's link pages on after the last row loaded, which a patch may have deleted or added.
  function settleNextLinks() {
    for (const link of table()?.querySelectorAll(".tk-section > a.tk-next") ?? []) {
      const rows = loadedRows(link.parentElement);
      const last = rows.length > 0 ? rows[rows.length - 1].dataset.row : null;
      const href = link.getAttribute("href");
      if (new URL(href, location.href).searchParams.get("after") === last) continue;
      // Only `after` is rewritten: the rest of the link stays as the server encoded it.
      const without = href.replace(/([?&])after=[^&]*(&|$)/, (match, lead, tail) => (tail ? lead : ""));
      const query = without.indexOf("?");
      const param = last === null ? "" : `after=${encodeURIComponent(last)}`;
      const rest = query < 0 ? "" : without.slice(query + 1);
      link.setAttribute("href", `${query < 0 ? without : without.slice(0, query)}?${[param, rest].filter(Boolean).join("&")}`);
    }
  }

  // The table's header view (row count, filters, facets). Not swapped under a reader who is
  // typing in it: it waits until the focus leaves.
  let pendingHeader;
  function replaceHeader(op) {
    const old = document.getElementById("table-header");
    if (old?.contains(document.activeElement) && document.activeElement !== document.body) {
      if (pendingHeader === undefined) {
        old.addEventListener("focusout", function settle(event) {
          if (old.contains(event.relatedTarget)) return;
          old.removeEventListener("focusout", settle);
          const html = pendingHeader;
          pendingHeader = undefined;
          replaceHeader({ html });
        });
      }
      pendingHeader = op.html ?? null;
      return;
    }
    if (!op.html) {
      old?.remove();
    } else if (old) {
      replace(old, op.html);
    } else {
      const element = fragment(op.html);
      const title = table()?.querySelector(":scope > .tk-title");
      if (element && title) title.after(element);
      else if (element) table()?.prepend(element);
    }
  }

  // Replaces an element, keeping focus on the equivalent control and animating a height change.
  function replace(old, html) {
    const next = fragment(html);
    if (!old || !next) return;
    const focused = old.contains(document.activeElement) ? document.activeElement : null;
    const focusClass = focused?.closest("form")?.className;
    const oldHeight = old.getBoundingClientRect().height;
    old.replaceWith(next);
    applyHeights(next);
    // Every class of the form: "tk-move tk-move-down" is the down button, not the row's first move.
    const formSelector = focusClass?.split(" ").filter(Boolean).map((name) => CSS.escape(name)).join(".");
    if (formSelector) {
      // A text field gets its focus and caret back; anything else focuses the form's button.
      const field = focused.name && focused.matches(textFields) ? next.querySelector(`form.${formSelector} [name="${CSS.escape(focused.name)}"]`) : null;
      (field ?? next.querySelector(`form.${formSelector} button`))?.focus({ preventScroll: true });
      if (field?.matches(textFields)) field.setSelectionRange(field.value.length, field.value.length);
    }
    const newHeight = next.getBoundingClientRect().height;
    if (oldHeight && Math.abs(newHeight - oldHeight) > 1 && next.animate) {
      next.animate([{ height: `${oldHeight}px` }, { height: `${newHeight}px` }], { duration: 180, easing: "ease-out" });
    }
  }

  // A row someone is typing in (a text field of it holds text not yet sent) is
  // not replaced under them: the latest patch of it waits, and the row says it changed meanwhile,
  // with a button that shows the new version. The patch is applied when they leave the row with
  // nothing left typed, or once their form is sent (the patch of their own write waits too).
  const waitingRows = new Map();
  const textFields = "input:not([type=hidden], [type=checkbox], [type=radio], [type=submit], [type=button]), textarea";
  function isBeingEdited(row) {
    // An open editor of a database row holds its row whether or not anything is typed yet.
    if (row.querySelector(".tp-cell-editor")) return true;
    return [...row.querySelectorAll(textFields)].some((field) => field.value !== field.defaultValue);
  }

  function replaceRow(id, html) {
    const old = rowElement(id);
    if (old && isBeingEdited(old)) {
      waitingRows.set(id, html);
      markChangedElsewhere(old, id);
      return;
    }
    waitingRows.delete(id);
    replace(old, html);
  }

  function markChangedElsewhere(row, id) {
    row.dataset.changedElsewhere = "true";
    if (row.querySelector(".tk-changed-elsewhere")) return;
    const note = document.createElement("p");
    note.className = "tk-changed-elsewhere";
    note.setAttribute("role", "status");
    note.textContent = "Someone else changed this row meanwhile. ";
    const show = document.createElement("button");
    show.type = "button";
    show.textContent = "Show their version";
    show.addEventListener("click", () => settleRow(id, true));
    note.append(show);
    // Inside a cell: a row's children are its cells; in a database row's open editor, which is one.
    (row.querySelector(".tp-cell-editor") ?? row.querySelector(":scope > [role=cell]:last-child") ?? row).append(note);
  }

  function settleRow(id, discardTyped = false) {
    if (!waitingRows.has(id)) return;
    const row = rowElement(id);
    if (row && !discardTyped && isBeingEdited(row)) return;
    const html = waitingRows.get(id);
    waitingRows.delete(id);
    const hadFocus = row?.contains(document.activeElement);
    replace(row, html);
    if (hadFocus) focusRow(rowElement(id));
  }

  page.addEventListener("focusout", (event) => {
    const row = event.target.closest?.(".tk-row");
    if (!row?.dataset.changedElsewhere || row.contains(event.relatedTarget)) return;
    settleRow(row.dataset.row);
  });

  // The focus of a row that moves, or of one deleted, stays with the row or goes to its neighbour,
  // so a keyboard user does not fall back to the start of the page.
  function focusRow(row, control) {
    const target = control && row?.contains(control) ? control : (row ? controlsOf(row)[0] ?? row.querySelector("[tabindex]") : null);
    target?.focus({ preventScroll: true });
  }

  // A row's own page whose row was deleted says so, and no longer links to its JSON or offers to
  // edit it (both would be a 404 now).
  function showRowDeleted() {
    page.querySelector(".tk-row-formats")?.remove();
    if (page.querySelector(".tk-row-deleted")) return;
    const note = document.createElement("p");
    note.className = "tk-row-deleted";
    note.setAttribute("role", "status");
    note.textContent = "This row was deleted.";
    page.querySelector(".tk-title")?.after(note);
  }

  function deleteRow(id) {
    if (page.dataset.row === id) showRowDeleted();
    const row = rowElement(id);
    if (!row) return;
    waitingRows.delete(id);
    const hadFocus = row.contains(document.activeElement);
    const neighbour = row.nextElementSibling ?? row.previousElementSibling;
    row.remove();
    if (hadFocus) focusRow(neighbour);
  }

  // The ops and events are PageContract.PatchOperation and PageContract.PatchEvent.
  function applyOp(op) {
    switch (op.op) {
      case "replace": replaceRow(op.row, op.html); break;
      case "insert": {
        const container = rowsOf(op.section);
        const element = op.html && fragment(op.html);
        if (container && element && !rowElement(op.row) && place(element, container, op, rowElement, isPartial(op.section))) {
          applyHeights(element);
        }
        break;
      }
      case "delete": deleteRow(op.row); break;
      case "move": {
        const element = rowElement(op.row);
        const container = rowsOf(op.section);
        if (!container) {
          if (element) deleteRow(op.row);
          break;
        }
        const partial = isPartial(op.section);
        if (element) {
          // Moving an element takes the focus from it: give it back, caret and all.
          const focused = element.contains(document.activeElement) ? document.activeElement : null;
          const caret = focused && focused.matches(textFields) ? [focused.selectionStart, focused.selectionEnd] : null;
          // Moved past the loaded part: it is counted there, not shown.
          if (!place(element, container, op, rowElement, partial)) {
            deleteRow(op.row);
          } else if (focused && document.activeElement !== focused) {
            focused.focus({ preventScroll: true });
            if (caret) focused.setSelectionRange(caret[0], caret[1]);
          }
        } else if (partial) {
          // A row moved into the loaded part, which the patch does not carry: fetch the page.
          const target = position(op, container, rowElement, true);
          const lastLoaded = container.querySelector(":scope > .tk-row:last-child");
          if (target && !(target[1] === "after" && target[0] === lastLoaded)) throw new Error("row moved into view");
        }
        break;
      }
      case "insert-section": {
        const element = op.html && fragment(op.html);
        const container = table();
        if (element && container && !sectionElement(op.section)) {
          place(element, container, op, sectionElement);
          applyHeights(element);
        }
        break;
      }
      case "delete-section": sectionElement(op.section)?.remove(); break;
      case "replace-section": replace(sectionElement(op.section), op.html); break;
      case "move-section": {
        const element = sectionElement(op.section);
        if (element) place(element, table(), op, sectionElement);
        break;
      }
      case "replace-header": replaceHeader(op); break;
      case "section-next": updateSectionCounts(op); break;
      case "reset": throw new Error("reset");
    }
  }

  function applyPatch(patch) {
    // All ops of one event land in one task, so the browser never paints a half-applied patch.
    try {
      for (const op of patch.ops) applyOp(op);
      settleNextLinks();
      sizeColumns();
    } catch (error) {
      refetch();
      return;
    }
    const main = table();
    if (main) main.dataset.version = String(patch.version);
  }

  async function refetch() {
    disconnect();
    setState("reloading");
    try {
      // A row's own page is its document; its stream is that of the page's variant of the row.
      const response = await fetch(page.dataset.document ?? page.dataset.url, { headers: { Accept: "text/html" } });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const doc = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = doc.querySelector(".tk-table");
      if (!fresh) throw new Error("no table in page");
      const scroll = window.scrollY;
      table()?.replaceWith(document.adoptNode(fresh));
      applyHeights(table());
      window.scrollTo(0, scroll);
      connect();
    } catch (error) {
      scheduleReconnect();
    }
  }

  // The live connection. A browser opens at most six HTTP/1.1 connections per host, so one
  // stream per tab would leave a seventh tab unable to load. Every tab's pages are followed over one
  // stream instead (`/-/events`, see table-pages-live.js): by a SharedWorker where the browser has
  // them, else by one tab elected leader over Web Locks, the others talking to it on a
  // BroadcastChannel; only without either does a tab open its page's own stream.
  const hubURL = new URL("table-pages-live.js", document.currentScript?.src ?? new URL("/public/", location.href)).href;
  // Names this tab to the hub, which learns from the tab's lock that it is gone.
  const tab = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  let followId = 0;
  let following = false;
  // Whether this tab, hidden for long, stopped following its page (see "visibilitychange").
  let handedBack = false;

  const followMessage = () => ({
    type: "follow",
    follow: followId,
    url: page.dataset.url,
    version: version(),
    view: document.querySelector('meta[name="csrf-token"]')?.content ?? "",
  });

  function onLive(message) {
    if (!following || message?.follow !== followId) return;
    switch (message.type) {
      case "state": setState(message.state); break;
      case "patch": applyPatch(JSON.parse(message.data)); break;
      case "reset": refetch(); break;
      case "failed": scheduleReconnect(); break;
    }
  }

  // This page's own stream: the last resort, and what curl and scripts use.
  function pageStreamTransport() {
    let source = null;
    return {
      follow(message) {
        const url = new URL(page.dataset.events, location.href);
        url.searchParams.set("lastEventId", message.version);
        source = new EventSource(url);
        const reply = (fields) => onLive({ follow: message.follow, ...fields });
        reply({ type: "state", state: "connecting" });
        source.addEventListener("open", () => reply({ type: "state", state: "live" }));
        source.addEventListener("patch", (event) => reply({ type: "patch", data: event.data }));
        source.addEventListener("reset", () => reply({ type: "reset" }));
        source.addEventListener("error", () => {
          // EventSource retries by itself (sending Last-Event-ID) unless the server refused outright.
          reply(source?.readyState === EventSource.CLOSED ? { type: "failed" } : { type: "state", state: "reconnecting" });
        });
      },
      leave(_follow) {
        source?.close();
        source = null;
      },
    };
  }

  function workerTransport() {
    const worker = new SharedWorker(hubURL, { name: "tablepages-live" });
    const port = worker.port;
    port.addEventListener("message", (event) => onLive(event.data));
    port.start();
    // After this tab's lock is held: the hub waits for the lock to learn that the tab is gone.
    port.postMessage({ type: "hello", tab });
    worker.addEventListener("error", () => {
      // The worker could not start (its script failed to load): follow the page by itself.
      transport = pageStreamTransport();
      if (following) transport.follow(followMessage());
    });
    return {
      follow: (message) => port.postMessage(message),
      leave: (follow) => port.postMessage({ type: "leave", follow }),
    };
  }

  function leaderTransport() {
    const channel = new BroadcastChannel("tablepages-live");
    let hub = null;
    const here = { post: (message) => queueMicrotask(() => onLive(message)) };
    const ports = new Map();
    const portOf = (id) => {
      if (!ports.has(id)) {
        const port = { post: (message) => channel.postMessage({ to: id, message }) };
        ports.set(id, port);
        window.TablePagesLiveHub.watchTab(hub, port, id);
      }
      return ports.get(id);
    };
    const send = (message) => {
      if (hub) hub.receive(here, message);
      else channel.postMessage({ to: "leader", from: tab, message });
    };
    channel.addEventListener("message", ({ data }) => {
      if (hub && data?.to === "leader") hub.receive(portOf(data.from), data.message);
      else if (data?.to === tab) onLive(data.message);
      // A new leader (the last one's tab closed) follows nothing yet: follow again from here.
      else if (data?.type === "leader" && !hub && following) send(followMessage());
    });
    const loaded = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = hubURL;
      script.addEventListener("load", resolve);
      script.addEventListener("error", reject);
      document.head.append(script);
    });
    // Held for the tab's life; the next tab waiting gets it when this one closes.
    navigator.locks.request("tablepages-live-leader", async () => {
      await loaded;
      hub = window.TablePagesLiveHub.createHub(location.origin);
      if (following) hub.receive(here, followMessage());
      channel.postMessage({ type: "leader" });
      await new Promise(() => {});
    }).catch(() => {});
    return {
      follow: send,
      leave: (follow) => send({ type: "leave", follow }),
    };
  }

  // Held while the tab lives, so that the hub learns when it is gone without saying so. The hub
  // hears of the tab only once it is held: a hub that asked first would get it at once.
  const tabLockHeld = new Promise((resolve) => {
    if (!navigator.locks) return resolve();
    navigator.locks.request(`tablepages-tab-${tab}`, () => {
      resolve();
      return new Promise(() => {});
    }).catch(resolve);
    // A lock manager that does not answer (it should at once) must not keep the page offline.
    setTimeout(resolve, 1000);
  });
  let transport = null;
  const waiting = [];
  tabLockHeld.then(() => {
    if ("SharedWorker" in window) transport = workerTransport();
    else if ("BroadcastChannel" in window && navigator.locks) transport = leaderTransport();
    else transport = pageStreamTransport();
    for (const action of waiting.splice(0)) action(transport);
  });
  const withTransport = (action) => (transport ? action(transport) : waiting.push(action));

  function disconnect() {
    if (!following) return;
    const follow = followId;
    withTransport((chosen) => chosen.leave(follow));
    following = false;
    followId += 1;
  }

  function scheduleReconnect() {
    disconnect();
    setState("offline");
    clearTimeout(retryTimer);
    retryTimer = setTimeout(refetch, 3000);
  }

  function connect() {
    disconnect();
    handedBack = false;
    following = true;
    const message = followMessage();
    withTransport((chosen) => chosen.follow(message));
  }

  function showError(message) {
    let toast = document.querySelector(".tp-toast");
    if (!toast) {
      toast = document.createElement("div");
      toast.className = "tp-toast";
      toast.setAttribute("role", "alert");
      document.body.append(toast);
    }
    toast.textContent = message;
    toast.hidden = false;
    clearTimeout(showError.timer);
    showError.timer = setTimeout(() => { toast.hidden = true; }, 4000);
  }

  // A value a form of declared fields does not take is said in the form, below its inputs, where
  // the visitor is looking (a toast would vanish), and the input the server named is marked and
  // focused. An empty message clears both.
  let formErrors = 0;
  function showFormError(form, message, fieldName) {
    let note = form.querySelector(".tk-form-error");
    for (const marked of form.querySelectorAll("[aria-invalid]")) {
      marked.removeAttribute("aria-invalid");
      marked.removeAttribute("aria-describedby");
    }
    if (!message) {
      note?.remove();
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.className = "tk-form-error";
      note.id = `tk-form-error-${++formErrors}`;
      note.setAttribute("role", "alert");
      form.append(note);
    }
    note.textContent = message;
    const input = fieldName ? form.elements.namedItem(fieldName) : null;
    if (input instanceof HTMLElement) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", note.id);
      input.focus();
    }
  }

  // Forms keep working without JavaScript; with it, those that change something (POST) post in
  // the background and the resulting patch arrives on the stream, for this client as for everyone
  // else. GET forms (search, filter, facets) only choose what to show: the browser navigates to
  // their URL as it would without a script, so the address, history and rows change together.
  page.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.closest(".tk-table")) return;
    if ((event.submitter?.getAttribute("formmethod") ?? form.method).toLowerCase() !== "post") return;
    event.preventDefault();
    const body = new URLSearchParams(new FormData(form, event.submitter));
    // The page's HTML is shared by every viewer, so the session's CSRF token is in the head
    // (per viewer) rather than in the forms; it goes along as a header.
    const headers = { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" };
    const csrf = document.querySelector('meta[name="csrf-token"]')?.content;
    if (csrf) headers["X-CSRF-Token"] = csrf;
    try {
      const response = await fetch(form.action, { method: "POST", headers, body });
      if (!response.ok) {
        const problem = await response.json().catch(() => null);
        const message = problem?.error?.message ?? `The server answered ${response.status}.`;
        if (response.status === 400 && form.classList.contains("tk-form")) {
          showFormError(form, message, response.headers.get("TablePages-Field"));
        } else {
          showError(message);
        }
        return;
      }
      // Done: the form goes back to what the page gave it (an add form empty), so a second click
      // does not send the same text again. A patch may already have replaced it.
      if (form.isConnected) {
        form.reset();
        showFormError(form, "", null);
      }
      const row = form.closest(".tk-row");
      if (row) settleRow(row.dataset.row);
      // A delegate that shows another page (a product's detail) names it; follow it as the
      // form's redirect would without JavaScript, but only within this site.
      const answer = await response.json().catch(() => null);
      if (typeof answer?.location === "string") {
        const next = new URL(answer.location, location.href);
        if (next.origin === location.origin) location.assign(next.href);
      }
    } catch (error) {
      showError("The server could not be reached.");
    }
  });

  // A database table's columns as wide as what they hold: each track is at least as wide as its
  // name and its widest value shown (up to 40 characters; longer values wrap). A number's column
  // is exactly that wide, so a one-digit id does not take a share of the screen with its name at
  // the far side of it; the other columns share what is left in proportion to their widths (a
  // table of numbers only leaves it empty, after its last column). Counted in characters (`ch`)
  // rather than measured from layout, so sizing never forces a reflow per row; without this
  // script every column is --tk-column-width.
  function sizeColumns() {
    const main = table();
    const header = main?.querySelector(".tk-db-columns-row");
    if (!header) return;
    const columns = [...header.querySelectorAll(":scope > .tk-db-column")];
    // The name, and room for its menu's button.
    const widths = columns.map((column) => (column.dataset.field ?? "").length + 3);
    for (const cell of main.querySelectorAll('.tk-row[data-kind="record"] > .tk-cell')) {
      let index = 0;
      for (const value of cell.querySelectorAll(":scope > .tk-field > .tk-field-value")) {
        widths[index] = Math.max(widths[index] ?? 0, Math.min(value.textContent.length, 40));
        index += 1;
      }
    }
    const numeric = (index) => columns[index]?.classList.contains("tk-db-numeric") ?? false;
    const tracks = widths.map((width) => Math.max(width, 3)).map((width, index) => numeric(index) ? `${width}ch` : `minmax(${width}ch, ${width}fr)`);
    if (tracks.every((_, index) => numeric(index))) tracks.push("minmax(0, 1fr)");
    main.style.setProperty("--tk-db-columns", tracks.join(" "));
  }

  async function loadMore(link) {
    if (link.dataset.loading) return;
    link.dataset.loading = "true";
    try {
      const response = await fetch(link.href, { headers: { Accept: "text/html" } });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const section = fragment(await response.text());
      const target = link.closest(".tk-section")?.querySelector(".tk-rows");
      let reached = false;
      for (const row of [...(section?.querySelectorAll(".tk-row") ?? [])]) {
        if (!rowElement(row.dataset.row)) target?.append(row);
        else if (rowElement(row.dataset.row).closest(".tk-jump")) reached = true;
      }
      const following = section?.querySelector("a.tk-next");
      const moved = target ? joinJumped(link, target, reached) : 0;
      nearViewport?.unobserve(link);
      if (following) {
        following.dataset.remaining = String(Math.max(0, Number(following.dataset.remaining) - moved));
        link.replaceWith(following);
        settleNextLinks();
        applyHeights(following.parentElement ?? following);
      } else {
        link.remove();
      }
      if (target) applyHeights(target);
      sizeColumns();
      fillViewport();
    } catch (error) {
      delete link.dataset.loading;
    }
  }

  // The rows loaded in order have reached the rows the reader jumped to (`reached`: a row just
  // loaded is among them, or as many rows are loaded as come before them): those become loaded
  // rows too, with the placeholder after them. Returns how many rows were moved.
  function joinJumped(link, target, reached) {
    const jumped = link.nextElementSibling?.matches(".tk-jump") ? link.nextElementSibling : null;
    if (!jumped || !(reached || target.querySelectorAll(":scope > .tk-row").length >= Number(jumped.dataset.from))) return 0;
    const rows = [...jumped.querySelectorAll(":scope > .tk-row")];
    target.append(...rows);
    // The link stands for the rows from the gap on, up to the next rows jumped to.
    if (jumped.nextElementSibling?.matches(".tk-gap")) jumped.nextElementSibling.remove();
    jumped.remove();
    return rows.length;
  }

  // Jumping anywhere. Rows load in order as the "More rows" link nears the viewport; when the
  // viewport is deep inside a placeholder (a scrollbar dragged, a jump to row N), the rows at that
  // position are asked for instead (`_at`, the row's position from the section's first) and put in
  // the placeholder's place, between a placeholder for the rows before them and one for the rows
  // after. So the rows in view come in one request wherever they are, and no more are loaded.
  const reach = 800;
  // Rows asked for above the viewport's top, so a little scrolling up shows rows rather than a gap.
  const rowsAbove = 20;
  const jumpRows = 100;

  function fillViewport() {
    for (const placeholder of table()?.querySelectorAll(".tk-section > a.tk-next[data-remaining], .tk-section > .tk-gap") ?? []) {
      if (placeholder.dataset.loading || placeholder.dataset.manual) continue;
      const box = placeholder.getBoundingClientRect();
      if (box.height < 1 || box.bottom < -reach || box.top > window.innerHeight + reach) continue;
      // Near its top, the link loads the next rows in order.
      if (placeholder.matches("a.tk-next") && box.top > -reach) loadMore(placeholder);
      else jumpTo(placeholder, box);
    }
  }

  let fillTimer = null;
  function scheduleFill() {
    clearTimeout(fillTimer);
    // A scrollbar dragged sends scroll events all the way; ask once it rests a moment.
    fillTimer = setTimeout(fillViewport, 40);
  }

  // The range of positions a placeholder stands for: [from, from + count).
  function rangeOf(placeholder) {
    if (placeholder.matches(".tk-gap")) return [Number(placeholder.dataset.from), Number(placeholder.dataset.count)];
    const section = placeholder.parentElement;
    const loaded = loadedRows(section).length;
    const jumped = placeholder.nextElementSibling?.matches(".tk-jump") ? placeholder.nextElementSibling : null;
    return [loaded, jumped ? Number(jumped.dataset.from) - loaded : Number(placeholder.dataset.remaining)];
  }

  async function jumpTo(placeholder, box) {
    const section = placeholder.parentElement;
    const link = nextLinkOf(section);
    if (!link) return;
    const [from, count] = rangeOf(placeholder);
    if (!(count > 0)) return;
    const scale = rowScale(link);
    // Dragged to the very end, the person wants the last rows: where the viewport's top falls is a
    // screenful of estimated rows before them, and rows taller than the estimate (a phone stacks
    // each row's columns) would leave the last ones below, the scrollbar already at its end.
    const root = document.documentElement;
    const atEnd = box.bottom <= window.innerHeight + 1 && window.scrollY + window.innerHeight >= root.scrollHeight - 2;
    const inView = atEnd ? from + count - 1 : from + Math.min(count - 1, Math.floor(Math.max(0, -box.top) / scale));
    const start = Math.max(from, inView - rowsAbove);
    const url = new URL(placeholder.dataset.href ?? link.href, location.href);
    url.searchParams.delete("after");
    url.searchParams.delete("_next");
    url.searchParams.set("_at", String(start));
    url.searchParams.set("limit", String(jumpRows));
    placeholder.dataset.loading = "true";
    let rows;
    let rowsElement;
    try {
      const response = await fetch(url, { headers: { Accept: "text/html" } });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const fetched = fragment(await response.text());
      rowsElement = fetched?.querySelector(".tk-rows");
      rows = [...(rowsElement?.querySelectorAll(":scope > .tk-row") ?? [])];
    } catch (error) {
      // Left as it is: scrolling on asks again.
      delete placeholder.dataset.loading;
      return;
    }
    delete placeholder.dataset.loading;
    // The placeholder changed meanwhile (rows loaded in order, a patch, a reload): ask again.
    if (!placeholder.isConnected || rangeOf(placeholder).join() !== [from, count].join()) {
      scheduleFill();
      return;
    }
    // Rows already shown end the new ones: they are the next rows jumped to.
    const fresh = [];
    for (const row of rows.slice(0, from + count - start)) {
      if (rowElement(row.dataset.row)) break;
      fresh.push(row);
    }
    const jumped = document.createElement("div");
    jumped.className = "tk-jump";
    for (const name of ["role", "aria-label"]) {
      const value = rowsElement?.getAttribute(name);
      if (value) jumped.setAttribute(name, value);
    }
    jumped.dataset.from = String(start);
    jumped.append(...fresh);
    // Rows put in above the viewport must not push the rows in view down: the first row in view
    // stays where it is (the browser's own scroll anchoring is off here, see table-pages.css).
    const anchor = firstRowInView();
    const anchorTop = anchor?.getBoundingClientRect().top;
    const end = from + count;
    // Past the end the section was shorter than counted: nothing after these rows.
    const after = fresh.length === 0 ? 0 : end - (start + fresh.length);
    const gapAfter = after > 0 ? makeGap(start + fresh.length, after, link) : null;
    if (placeholder.matches(".tk-gap")) {
      if (start > from) placeholder.dataset.count = String(start - from);
      placeholder.after(...[jumped, gapAfter].filter(Boolean));
      if (start === from) placeholder.remove();
    } else {
      placeholder.after(...[jumped, gapAfter].filter(Boolean));
    }
    if (fresh.length === 0) jumped.remove();
    applyHeights(jumped);
    sizePlaceholder(link);
    sizeColumns();
    if (atEnd && after === 0 && fresh.length > 0) {
      fresh[fresh.length - 1].scrollIntoView({ block: "end" });
    } else if (anchor?.isConnected) {
      const shift = anchor.getBoundingClientRect().top - anchorTop;
      if (Math.abs(shift) >= 1) window.scrollBy(0, shift);
    }
    scheduleFill();
  }

  function firstRowInView() {
    for (const row of table()?.querySelectorAll(".tk-row") ?? []) {
      const box = row.getBoundingClientRect();
      if (box.bottom > 0 && box.height > 0) return box.top < window.innerHeight ? row : null;
    }
    return null;
  }

  function makeGap(from, count, link) {
    const gap = document.createElement("div");
    gap.className = "tk-gap";
    gap.setAttribute("aria-hidden", "true");
    gap.dataset.from = String(from);
    gap.dataset.count = String(count);
    gap.dataset.href = link.href;
    return gap;
  }

  const nearViewport = "IntersectionObserver" in window
    ? new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) scheduleFill();
      }, { rootMargin: `${reach}px 0px` })
    : null;

  function observeNextLinks(root) {
    for (const link of root.querySelectorAll?.("a.tk-next") ?? []) nearViewport?.observe(link);
  }

  window.addEventListener("scroll", scheduleFill, { passive: true });
  window.addEventListener("resize", scheduleFill);

  // A column menu (a <details>) closes on Escape, giving the focus back to its button, and on a
  // click anywhere else, as a menu does; opening one closes the others.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const menu = event.target.closest?.("details.tk-db-menu[open]");
    if (!menu) return;
    menu.open = false;
    menu.querySelector("summary")?.focus();
  });
  document.addEventListener("click", (event) => {
    for (const menu of document.querySelectorAll("details.tk-db-menu[open]")) {
      if (!menu.contains(event.target)) menu.open = false;
    }
  });

  page.addEventListener("click", (event) => {
    const link = event.target.closest?.("a.tk-next");
    if (!link) return;
    event.preventDefault();
    loadMore(link);
  });

  // A tab left hidden for long hands its share of the stream back: the server stops sending its
  // page's patches, which nobody sees. Shown again, it follows from the version it shows, and
  // gets what it missed (or refetches the page when too much was missed).
  const hiddenGrace = Number(window.TablePagesHiddenGrace ?? 10 * 60 * 1000);
  let hiddenTimer = null;
  document.addEventListener("visibilitychange", () => {
    clearTimeout(hiddenTimer);
    if (document.hidden) {
      hiddenTimer = setTimeout(() => {
        if (!document.hidden || !following) return;
        disconnect();
        handedBack = true;
        setState("paused");
      }, hiddenGrace);
    } else if (handedBack) {
      handedBack = false;
      connect();
    }
  });

  window.addEventListener("pagehide", disconnect);
  // Back or forward to this page from the browser's cache: the stream was closed on the way out
  // and the rows may have changed since; read the page again and go live.
  window.addEventListener("pageshow", (event) => { if (event.persisted) refetch(); });
  // Editing a database table's rows, for a viewer who may write (the page then links its insert
  // form, "Add a row"): a double click on a value (or F2 on a row) puts the column's editor in its
  // place, fetched from the row's edit form with the version of the row it was made on; "Add a
  // row" opens the insert form, with a box for rows pasted from a spreadsheet, above the table.
  // Each write names that version: a row changed meanwhile is refused (409) and the editor shows
  // their value beside the person's, with "Keep mine" and "Take theirs". A value the database
  // refuses (400) is said beside its field. An open editor holds back the patches of its row
  // (isBeingEdited), so a change by someone else never takes the person's text or focus.
  function setUpEditing(addRowLink) {
    const pagePath = new URL(addRowLink.href).pathname.replace(/\/-\/insert$/, "");
    const rowPath = (id) => `${pagePath}/rows/${encodeURIComponent(id)}`;
    const writeHeaders = () => {
      const headers = { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" };
      const csrf = document.querySelector('meta[name="csrf-token"]')?.content;
      if (csrf) headers["X-CSRF-Token"] = csrf;
      return headers;
    };
    const post = (url, body) => fetch(url, { method: "POST", headers: writeHeaders(), body });
    const element = (tag, className, text) => {
      const made = document.createElement(tag);
      if (className) made.className = className;
      if (text !== undefined) made.textContent = text;
      return made;
    };
    const problemText = async (response) => (await response.json().catch(() => null))?.error?.message ?? `The server answered ${response.status}.`;

    // A message beside the field of `input` (or at the end of `form`), the input marked invalid.
    function sayBeside(form, fieldName, message) {
      for (const old of form.querySelectorAll(".tp-edit-problem")) old.remove();
      for (const marked of form.querySelectorAll("[aria-invalid]")) marked.removeAttribute("aria-invalid");
      if (!message) return;
      const input = fieldName ? form.elements.namedItem(fieldName) : null;
      const note = element("p", "tp-edit-problem", message);
      note.id = `tp-edit-problem-${++formErrors}`;
      note.setAttribute("role", "alert");
      const holder = input instanceof HTMLElement ? input.closest(".tp-edit-field") ?? form : form;
      holder.append(note);
      if (input instanceof HTMLElement) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", note.id);
        input.focus();
      }
    }

    async function openEditor(field) {
      const row = field.closest(".tk-row");
      if (!row || row.querySelector(".tp-cell-editor") || row.dataset.opening) return;
      const id = row.dataset.row;
      const column = field.dataset.field;
      row.dataset.opening = "true";
      try {
        const response = await fetch(`${rowPath(id)}/-/edit?column=${encodeURIComponent(column)}`, { headers: { Accept: "text/html" } });
        if (!response.ok) return showError(`The editor could not be opened: the server answered ${response.status}.`);
        const form = fragment(await response.text());
        // The row may have been replaced while the editor came: edit the one shown now.
        const current = rowElement(id)?.querySelector(`.tk-field[data-field="${CSS.escape(column)}"]`);
        const cell = current?.closest(".tk-cell");
        if (!form || !current || !cell) return;
        // Under the row's values, as wide as the row: a column may be too narrow for an editor.
        current.classList.add("tp-editing");
        form.dataset.column = column;
        form.setAttribute("role", "cell");
        form.setAttribute("aria-label", `Edit ${column}`);
        cell.append(form);
        keepOnScreen(form);
        wireEditor(form, id, column);
        form.querySelector("input:not([type=hidden]), select, textarea")?.focus();
      } catch (error) {
        showError("The server could not be reached.");
      } finally {
        delete rowElement(id)?.dataset.opening;
        delete row.dataset.opening;
      }
    }

    // A row wider than the screen (a table of many columns, scrolled sideways): its editor, as
    // wide as the row, would run off the screen; it is put where the person is looking instead,
    // as wide as the screen at most.
    function keepOnScreen(form) {
      const box = form.getBoundingClientRect();
      const screen = document.documentElement.clientWidth;
      if (box.left >= 0 && box.right <= screen) return;
      const shift = Math.max(0, 8 - box.left);
      form.style.justifySelf = "start";
      form.style.marginInlineStart = `${shift}px`;
      form.style.width = `${Math.min(box.right, screen - 8) - (box.left + shift)}px`;
    }

    function closeEditor(form, id) {
      const hadFocus = form.contains(document.activeElement);
      form.closest(".tk-row")?.querySelector(".tp-editing")?.classList.remove("tp-editing");
      form.remove();
      settleRow(id, true);
      if (hadFocus) focusRow(rowElement(id));
    }

    function wireEditor(form, id, column) {
      form.addEventListener("keydown", (event) => {
        // Arrows move the caret here, not to the next row.
        if (event.key.startsWith("Arrow") || event.key === "Home" || event.key === "End") event.stopPropagation();
        if (event.key === "Escape") {
          event.stopPropagation();
          closeEditor(form, id);
        }
      });
      form.querySelector(".tp-cancel")?.addEventListener("click", () => closeEditor(form, id));
      form.querySelector(".tp-delete-row")?.addEventListener("click", () => confirmDelete(form, id));
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        event.stopPropagation();
        await save(form, id, column);
      });
    }

    async function save(form, id, column) {
      // Nothing changed, nothing written: the row keeps its value exactly (see `untouched`).
      const field = form.querySelector(".tp-edit-field");
      if (field && untouched(field)) return closeEditor(form, id);
      const body = new URLSearchParams(new FormData(form));
      let response;
      try {
        response = await post(form.action, body);
      } catch (error) {
        return showError("The server could not be reached.");
      }
      if (response.ok) return closeEditor(form, id);
      if (response.status === 409) {
        const answer = await response.json().catch(() => null);
        return showConflict(form, id, column, answer);
      }
      const message = await problemText(response);
      if (response.status === 400) sayBeside(form, response.headers.get("TablePages-Field"), message);
      else showError(message);
    }

    // Their value beside the person's: "Keep mine" sends the person's value again, checked
    // against the row as it is now; "Take theirs" closes the editor and shows their row.
    function showConflict(form, id, column, answer) {
      form.querySelector(".tp-conflict-note")?.remove();
      const note = element("div", "tp-conflict-note");
      note.setAttribute("role", "alert");
      if (!answer?.current) {
        note.append(element("p", "", "Someone deleted this row meanwhile; nothing was written."));
        const close = element("button", "", "Close");
        close.type = "button";
        close.addEventListener("click", () => closeEditor(form, id));
        note.append(close);
        form.append(note);
        return close.focus();
      }
      const theirs = answer.current[column];
      const input = form.elements.namedItem(`v.${column}`);
      const mine = form.elements.namedItem("null")?.checked ? null : input?.value;
      note.append(element("p", "", "Someone changed this row meanwhile; nothing was written."));
      const values = element("dl", "tp-conflict-values");
      values.append(element("dt", "", "Theirs"), element("dd", theirs === null ? "tk-null" : "", theirs === null ? "NULL" : String(theirs)));
      values.append(element("dt", "", "Yours"), element("dd", mine === null ? "tk-null" : "", mine === null ? "NULL" : String(mine)));
      note.append(values);
      const keep = element("button", "tp-keep-mine", "Keep mine");
      keep.type = "button";
      keep.addEventListener("click", () => {
        form.elements.namedItem("_version").value = answer.version;
        note.remove();
        save(form, id, column);
      });
      const take = element("button", "tp-take-theirs", "Take theirs");
      take.type = "button";
      take.addEventListener("click", () => closeEditor(form, id));
      note.append(keep, take);
      form.append(note);
    }

    // Deleting asks first, in the editor; the row is deleted only if it is still the one the
    // editor was made on. Then an "Undo" adds it again, with the same values.
    function confirmDelete(form, id) {
      form.querySelector(".tp-confirm-delete")?.remove();
      const ask = element("div", "tp-confirm-delete");
      ask.setAttribute("role", "alert");
      ask.append(element("p", "", `Delete row ${id}?`));
      const yes = element("button", "tk-destructive", "Delete");
      yes.type = "button";
      const no = element("button", "", "Keep it");
      no.type = "button";
      no.addEventListener("click", () => { ask.remove(); form.querySelector(".tp-delete-row")?.focus(); });
      yes.addEventListener("click", async () => {
        const body = new URLSearchParams({ _version: form.elements.namedItem("_version").value });
        const response = await post(`${rowPath(id)}/-/delete`, body).catch(() => null);
        if (!response) return showError("The server could not be reached.");
        if (response.status === 409) {
          ask.remove();
          return showConflict(form, id, form.dataset.column, await response.json().catch(() => null));
        }
        if (!response.ok) return showError(await problemText(response));
        const answer = await response.json().catch(() => null);
        const neighbour = rowElement(id)?.nextElementSibling ?? rowElement(id)?.previousElementSibling;
        form.remove();
        settleRow(id, true);
        if (neighbour) focusRow(neighbour);
        offerUndo(id, answer?.undo);
      });
      ask.append(yes, no);
      form.append(ask);
      yes.focus();
    }

    // The undo is the server's, from its audit trail: the row comes back with its own id and
    // every value as it was (a blob's bytes, a real, text that looks like a number).
    function offerUndo(id, undoPath) {
      const toast = element("div", "tp-undo");
      toast.setAttribute("role", "status");
      toast.append(element("span", "", `Row ${id} deleted. `));
      if (undoPath) {
        const undo = element("button", "", "Undo");
        undo.type = "button";
        undo.addEventListener("click", async () => {
          const response = await post(undoPath, new URLSearchParams({ _row: id })).catch(() => null);
          toast.remove();
          if (!response?.ok) showError(response ? await problemText(response) : "The server could not be reached.");
        });
        toast.append(undo);
      }
      document.body.append(toast);
      setTimeout(() => toast.remove(), 10000);
    }

    page.addEventListener("dblclick", (event) => {
      const field = event.target.closest?.('.tk-row[data-kind="record"] .tk-field');
      if (!field || event.target.closest(".tp-cell-editor")) return;
      event.preventDefault();
      openEditor(field);
    });
    // A value that is a link (a foreign key's label, bytes, a cut text) is followed on the first
    // click of a double click, so the pointer over it shows a small "Edit" button beside it (F2
    // serves the keyboard). The button floats over the page: shown, it moves nothing.
    const editButton = element("button", "tp-edit-cell", "Edit");
    editButton.type = "button";
    editButton.hidden = true;
    document.body.append(editButton);
    let editTarget = null;
    document.addEventListener("pointerover", (event) => {
      if (event.target === editButton) return;
      const field = event.target.closest?.('.tk-row[data-kind="record"] .tk-field');
      if (!field || !page.contains(field) || !field.querySelector("a[href]") || field.closest(".tp-cell-editor")) {
        editButton.hidden = true;
        return;
      }
      // Beside the value's text, not its box (on a phone that box spans the screen).
      const extent = document.createRange();
      extent.selectNodeContents(field.querySelector(".tk-field-value") ?? field);
      const box = extent.getBoundingClientRect();
      editTarget = { row: field.closest(".tk-row").dataset.row, column: field.dataset.field };
      editButton.setAttribute("aria-label", `Edit ${editTarget.column}`);
      editButton.hidden = false;
      const left = Math.max(0, Math.min(box.right + 6, document.documentElement.clientWidth - editButton.offsetWidth - 4));
      editButton.style.left = `${left + scrollX}px`;
      editButton.style.top = `${box.top + scrollY}px`;
    });
    editButton.addEventListener("click", () => {
      editButton.hidden = true;
      const field = editTarget && rowElement(editTarget.row)?.querySelector(`.tk-field[data-field="${CSS.escape(editTarget.column)}"]`);
      if (field) openEditor(field);
    });
    page.addEventListener("keydown", (event) => {
      if (event.key !== "F2") return;
      const row = event.target.closest?.('.tk-row[data-kind="record"]');
      if (!row || event.target.closest(".tp-cell-editor")) return;
      const fields = [...row.querySelectorAll(".tk-field")];
      const field = event.target.closest(".tk-field") ?? fields[1] ?? fields[0];
      if (!field) return;
      event.preventDefault();
      openEditor(field);
    });

    // The insert form, above the table: one row by its fields, or rows pasted, previewed first.
    let panel = null;
    addRowLink.addEventListener("click", async (event) => {
      event.preventDefault();
      if (panel) {
        panel.querySelector("input:not([type=hidden]), textarea")?.focus();
        return;
      }
      try {
        const response = await fetch(addRowLink.href, { headers: { Accept: "text/html" } });
        if (!response.ok) return showError(await problemText(response));
        const doc = new DOMParser().parseFromString(await response.text(), "text/html");
        const forms = [...doc.querySelectorAll("form.tp-insert-form, form.tp-paste-form")];
        if (forms.length === 0) return;
        panel = element("section", "tp-insert-panel");
        panel.setAttribute("aria-label", "Add rows");
        for (const form of forms) panel.append(document.adoptNode(form));
        const close = element("button", "tp-close-insert", "Close");
        close.type = "button";
        close.addEventListener("click", () => { panel.remove(); panel = null; addRowLink.focus(); });
        panel.append(close);
        addRowLink.closest("p")?.after(panel);
        wireInsert(panel.querySelector("form.tp-insert-form"));
        wirePaste(panel.querySelector("form.tp-paste-form"));
        panel.querySelector("input:not([type=hidden]), select, textarea")?.focus();
      } catch (error) {
        showError("The server could not be reached.");
      }
    });

    function wireInsert(form) {
      form?.addEventListener("submit", async (event) => {
        event.preventDefault();
        const response = await post(form.action, new URLSearchParams(new FormData(form))).catch(() => null);
        if (!response) return showError("The server could not be reached.");
        if (!response.ok) return sayBeside(form, response.headers.get("TablePages-Field"), await problemText(response));
        form.reset();
        sayBeside(form, null, "");
        form.querySelector("input:not([type=hidden]), select, textarea")?.focus();
      });
    }

    function wirePaste(form) {
      form?.addEventListener("submit", async (event) => {
        event.preventDefault();
        const body = new URLSearchParams(new FormData(form));
        const previewing = !form.dataset.previewed;
        if (previewing) body.set("_preview", "1");
        else body.delete("_preview");
        const response = await post(form.action, body).catch(() => null);
        if (!response) return showError("The server could not be reached.");
        if (!response.ok) {
          // A refused write names the pasted line at fault: marked in the preview, the words beside it.
          const line = response.headers.get("TablePages-Line");
          for (const row of form.querySelectorAll(".tp-paste-preview tbody tr")) {
            row.classList.toggle("tp-paste-refused", line !== null && row.dataset.line === line);
          }
          sayBeside(form, "_paste", await problemText(response));
          const note = form.querySelector(".tp-edit-problem");
          if (note) form.querySelector(".tp-paste-preview")?.after(note);
          return;
        }
        sayBeside(form, null, "");
        const button = form.querySelector("button[type=submit]");
        form.querySelector(".tp-paste-preview")?.remove();
        if (previewing) {
          const answer = await response.json();
          form.dataset.previewed = "true";
          form.querySelector("textarea").readOnly = true;
          form.querySelector(".tp-edit-buttons")?.before(previewTable(answer));
          button.textContent = answer.rows.length === 1 ? "Add the row" : `Add these ${answer.rows.length} rows`;
          button.focus();
        } else {
          delete form.dataset.previewed;
          const textarea = form.querySelector("textarea");
          textarea.readOnly = false;
          textarea.value = "";
          button.textContent = "Preview";
          textarea.focus();
        }
      });
      // Changing the text goes back to previewing.
      form?.querySelector("textarea")?.addEventListener("input", () => {
        delete form.dataset.previewed;
        form.querySelector(".tp-paste-preview")?.remove();
      });
    }

    function previewTable(answer) {
      const holder = element("div", "tp-paste-preview");
      const grid = element("table");
      const head = grid.createTHead().insertRow();
      head.append(element("th", "", "Line"), ...answer.columns.map((name) => element("th", "", name)));
      const body = grid.createTBody();
      answer.rows.forEach((values, index) => {
        const line = body.insertRow();
        line.dataset.line = String(answer.lines?.[index] ?? index + 1);
        line.append(element("th", "", line.dataset.line));
        for (const name of answer.columns) {
          const value = values[name];
          line.append(value === undefined ? element("td", "tp-default", "default") : value === null ? element("td", "tk-null", "NULL") : element("td", "", value));
        }
      });
      for (const cell of grid.querySelectorAll("th")) cell.scope = cell.parentElement.parentElement.tagName === "THEAD" ? "col" : "row";
      holder.append(grid);
      return holder;
    }
  }

  const addRowLink = document.querySelector("a.tp-add-row");
  if (addRowLink) setUpEditing(addRowLink);
  applyHeights(page);
  sizeColumns();
  connect();
})();
