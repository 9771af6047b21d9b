// TablePages browser client: keeps an open page live. No build step, no inline script (the CSP
// forbids it). It subscribes to the page's event stream, applies each patch's ops atomically by
// data-row / data-section, refetches on `reset`, sends selections and actions with fetch, and
// loads more rows as a section's "More rows" link nears the viewport.
"use strict";

(() => {
  const page = document.querySelector(".tp-page");
  if (!page) return;
  const indicator = document.querySelector(".tp-live");
  let source = null;
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

  // Explicit heights come as data attributes (a strict CSP allows no style attributes);
  // applying them through the CSSOM is allowed.
  function applyHeights(root) {
    const elements = root.matches?.("[data-height]") ? [root] : [];
    elements.push(...root.querySelectorAll("[data-height]"));
    for (const element of elements) element.style.minHeight = `${element.dataset.height}px`;
    for (const link of root.querySelectorAll("a.tk-next[data-remaining][data-estimated-row-height]")) {
      const space = Number(link.dataset.remaining) * Number(link.dataset.estimatedRowHeight);
      // Browsers cap element heights near 33 million pixels.
      link.style.minHeight = `${Math.min(space, 10000000)}px`;
    }
    observeNextLinks(root);
  }

  function place(element, container, op, siblingOf) {
    if (op.after !== undefined) {
      const neighbour = op.after === null ? null : siblingOf(op.after);
      if (neighbour) neighbour.after(element);
      else if (op.after === null) container.prepend(element);
      else container.append(element);
    } else if (op.before !== undefined) {
      const neighbour = op.before === null ? null : siblingOf(op.before);
      if (neighbour) neighbour.before(element);
      else container.append(element);
    } else {
      container.append(element);
    }
  }

  function rowsOf(sectionId) {
    return sectionElement(sectionId)?.querySelector(".tk-rows") ?? null;
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
    if (focusClass) next.querySelector(`form.${CSS.escape(focusClass.split(" ")[0])} button`)?.focus({ preventScroll: true });
    const newHeight = next.getBoundingClientRect().height;
    if (oldHeight && Math.abs(newHeight - oldHeight) > 1 && next.animate) {
      next.animate([{ height: `${oldHeight}px` }, { height: `${newHeight}px` }], { duration: 180, easing: "ease-out" });
    }
  }

  // The ops and events are PageContract.PatchOperation and PageContract.PatchEvent.
  function applyOp(op) {
    switch (op.op) {
      case "replace": replace(rowElement(op.row), op.html); break;
      case "insert": {
        const container = rowsOf(op.section);
        const element = op.html && fragment(op.html);
        if (container && element && !rowElement(op.row)) {
          place(element, container, op, rowElement);
          applyHeights(element);
        }
        break;
      }
      case "delete": rowElement(op.row)?.remove(); break;
      case "move": {
        const element = rowElement(op.row);
        const container = rowsOf(op.section);
        if (element && container) place(element, container, op, rowElement);
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
      case "reset": throw new Error("reset");
    }
  }

  function applyPatch(patch) {
    // All ops of one event land in one task, so the browser never paints a half-applied patch.
    try {
      for (const op of patch.ops) applyOp(op);
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
      const response = await fetch(page.dataset.url, { headers: { Accept: "text/html" } });
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

  function disconnect() {
    source?.close();
    source = null;
  }

  function scheduleReconnect() {
    setState("offline");
    clearTimeout(retryTimer);
    retryTimer = setTimeout(refetch, 3000);
  }

  function connect() {
    disconnect();
    const url = new URL(page.dataset.events, location.href);
    url.searchParams.set("lastEventId", version());
    source = new EventSource(url);
    setState("connecting");
    source.addEventListener("open", () => setState("live"));
    source.addEventListener("patch", (event) => applyPatch(JSON.parse(event.data)));
    source.addEventListener("reset", () => refetch());
    source.addEventListener("error", () => {
      // EventSource retries by itself (sending Last-Event-ID) unless the server refused outright.
      if (source?.readyState === EventSource.CLOSED) scheduleReconnect();
      else setState("reconnecting");
    });
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

  // Forms keep working without JavaScript; with it they post in the background and the
  // resulting patch arrives on the stream, for this client as for everyone else.
  page.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.closest(".tk-table")) return;
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
        showError(problem?.error?.message ?? `The server answered ${response.status}.`);
        return;
      }
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

  async function loadMore(link) {
    if (link.dataset.loading) return;
    link.dataset.loading = "true";
    try {
      const response = await fetch(link.href, { headers: { Accept: "text/html" } });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const section = fragment(await response.text());
      const target = link.closest(".tk-section")?.querySelector(".tk-rows");
      for (const row of [...(section?.querySelectorAll(".tk-row") ?? [])]) {
        if (!rowElement(row.dataset.row)) target?.append(row);
      }
      const following = section?.querySelector("a.tk-next");
      if (following) {
        link.replaceWith(following);
        applyHeights(following.parentElement ?? following);
      } else {
        link.remove();
      }
      if (target) applyHeights(target);
    } catch (error) {
      delete link.dataset.loading;
    }
  }

  const nearViewport = "IntersectionObserver" in window
    ? new IntersectionObserver((entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) {
            nearViewport.unobserve(entry.target);
            loadMore(entry.target);
          }
        }
      }, { rootMargin: "800px 0px" })
    : null;

  function observeNextLinks(root) {
    for (const link of root.querySelectorAll?.("a.tk-next") ?? []) nearViewport?.observe(link);
  }

  page.addEventListener("click", (event) => {
    const link = event.target.closest?.("a.tk-next");
    if (!link) return;
    event.preventDefault();
    loadMore(link);
  });

  window.addEventListener("pagehide", disconnect);
  applyHeights(page);
  connect();
})();
