// TablePages live hub: one event stream (`/-/events`) for every page the browser's tabs show.
//
// A browser opens at most six HTTP/1.1 connections to one host, and an EventSource holds one for
// as long as its page is open: with one stream per tab, a seventh tab never loads. The hub follows
// all the tabs' pages over one stream instead. It runs as a SharedWorker where the browser has
// them; elsewhere `table-pages.js` loads this file into the tab elected leader (over Web Locks and
// a BroadcastChannel), where it runs the same way.
//
// Tabs send {type: "follow", follow, url, version, view} and {type: "leave", follow}; the hub answers
// {follow, type: "state" | "patch" | "reset" | "failed", ...}, where `follow` names the tab's
// current follow so that a tab can drop what was meant for an earlier one.
//
// Each followed page is an entry: a page URL, the id of the last event its tabs have, and those
// tabs. Tabs on one page at one version share an entry; changing the set of entries reopens the
// stream, each entry from its own id, which the server replays exactly (or answers `reset`).
"use strict";

(() => {
  // The most entries, and the longest URL, of one stream: the server allows 64 pages per stream
  // and request heads of about 6 KB. Past them the hub opens a second stream.
  const maxEntriesPerStream = 40;
  const maxURLLength = 3000;
  // Joining is quick (a new tab waits for it); leaving is lazy, as the stream only carries a few
  // unwanted events meanwhile, and a tab often leaves only to follow again (after a refetch).
  const joinDelay = 20;
  const leaveDelay = 1000;
  const retryDelay = 2000;

  function createHub(origin) {
    const entries = new Set();
    let streams = [];
    let view = null;
    let reopenTimer = null;
    let reopenAt = Infinity;

    const send = (client, entry, message) => client.port.post({ follow: client.follow, ...message, url: entry.url });

    function schedule(delay) {
      const at = Date.now() + delay;
      if (at >= reopenAt) return;
      clearTimeout(reopenTimer);
      reopenAt = at;
      reopenTimer = setTimeout(reopen, delay);
    }

    function drop(entry) {
      entries.delete(entry);
      entry.dropped = true;
    }

    function closeStreams() {
      for (const stream of streams) stream.source.close();
      streams = [];
    }

    const pageValue = (entry) => `page=${encodeURIComponent(`${entry.lastId}:${entry.url}`)}`;

    function reopen() {
      clearTimeout(reopenTimer);
      reopenTimer = null;
      reopenAt = Infinity;
      closeStreams();
      let chunk = [];
      let length = 0;
      for (const entry of entries) {
        const value = pageValue(entry);
        if (chunk.length > 0 && (chunk.length >= maxEntriesPerStream || length + value.length > maxURLLength)) {
          open(chunk);
          chunk = [];
          length = 0;
        }
        chunk.push(entry);
        length += value.length + 1;
      }
      if (chunk.length > 0) open(chunk);
    }

    function open(chunk) {
      const query = chunk.map(pageValue).join("&");
      const source = new EventSource(`${origin}/-/events?${query}`);
      const stream = { source, chunk };
      streams.push(stream);
      for (const entry of chunk) entry.stream = stream;
      const each = (handler) => (event) => {
        const newline = event.data.indexOf("\n");
        const entry = chunk[Number(event.data.slice(0, newline))];
        if (entry && !entry.dropped && entry.stream === stream) handler(entry, event.data.slice(newline + 1), event);
      };
      source.addEventListener("open", () => {
        for (const entry of chunk) entry.live = true;
        for (const entry of chunk) for (const client of entry.clients) send(client, entry, { type: "state", state: "live" });
      });
      source.addEventListener("patch", each((entry, data, event) => {
        entry.lastId = event.lastEventId;
        for (const client of entry.clients) send(client, entry, { type: "patch", data });
      }));
      // The page's patches are gone (or never were): its tabs refetch it and follow it again.
      source.addEventListener("reset", each((entry) => {
        drop(entry);
        for (const client of entry.clients) send(client, entry, { type: "reset" });
      }));
      source.addEventListener("refused", each((entry, data) => {
        drop(entry);
        for (const client of entry.clients) send(client, entry, { type: "failed", error: data });
      }));
      source.addEventListener("error", () => {
        if (!streams.includes(stream)) return;
        // EventSource is CLOSED when the server answered with an error (every page refused, too
        // many streams, the server unavailable), CONNECTING when the connection dropped.
        const failed = source.readyState === EventSource.CLOSED;
        // EventSource would reconnect by itself, with one Last-Event-ID for all the pages; the hub
        // reconnects instead, with each page's own id.
        source.close();
        streams = streams.filter((other) => other !== stream);
        for (const entry of chunk) {
          if (entry.dropped || entry.stream !== stream) continue;
          entry.live = false;
          // Failed: the tabs try again their own way, refetching the page first.
          if (failed) drop(entry);
          for (const client of entry.clients) send(client, entry, failed ? { type: "failed" } : { type: "state", state: "reconnecting" });
        }
        if (!failed) schedule(retryDelay);
      });
    }

    function leave(port, follow) {
      for (const entry of entries) {
        for (const client of entry.clients) {
          if (client.port === port && (follow === undefined || client.follow === follow)) entry.clients.delete(client);
        }
        if (entry.clients.size === 0) {
          drop(entry);
          schedule(leaveDelay);
        }
      }
    }

    function follow(port, message) {
      leave(port);
      if (message.view !== view) {
        // Signed in or out in some tab: the stream's cookies changed. Tabs that show the pages as
        // the other viewer refetch them, and every stream reopens as the new one.
        view = message.view;
        for (const entry of entries) {
          drop(entry);
          for (const client of entry.clients) send(client, entry, { type: "reset" });
        }
        closeStreams();
      }
      const client = { port, follow: message.follow };
      const version = String(message.version);
      for (const entry of entries) {
        if (entry.url === message.url && entry.lastId === version) {
          entry.clients.add(client);
          send(client, entry, { type: "state", state: entry.live ? "live" : "connecting" });
          return;
        }
      }
      const entry = { url: message.url, lastId: version, clients: new Set([client]), live: false, stream: null };
      entries.add(entry);
      send(client, entry, { type: "state", state: "connecting" });
      schedule(joinDelay);
    }

    return {
      receive(port, message) {
        if (message?.type === "follow" && typeof message.url === "string") follow(port, message);
        else if (message?.type === "leave") leave(port, message.follow);
      },
      // The tab behind `port` is gone (closed, crashed, or navigated away without saying so).
      gone(port) { leave(port); },
      close() {
        clearTimeout(reopenTimer);
        closeStreams();
      },
    };
  }

  // A tab that goes away without a word (a crash, a killed renderer) would keep its pages
  // followed: each tab holds a Web Lock named after it while it lives, and the hub waits for it.
  function watchTab(hub, port, tab) {
    if (!tab || !globalThis.navigator?.locks) return;
    navigator.locks.request(`tablepages-tab-${tab}`, () => hub.gone(port)).catch(() => {});
  }

  if (typeof SharedWorkerGlobalScope !== "undefined" && self instanceof SharedWorkerGlobalScope) {
    const hub = createHub(self.location.origin);
    self.addEventListener("connect", (event) => {
      const port = event.ports[0];
      const wrapped = { post: (message) => port.postMessage(message) };
      port.addEventListener("message", (message) => {
        if (message.data?.type === "hello") watchTab(hub, wrapped, message.data.tab);
        else hub.receive(wrapped, message.data);
      });
      port.start();
    });
  } else if (typeof window !== "undefined") {
    window.TablePagesLiveHub = { createHub, watchTab };
  }
})();
