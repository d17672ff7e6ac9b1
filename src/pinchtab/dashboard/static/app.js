// The dashboard: one event stream (GET /api/events, server-sent events) keeps `state` current;
// each page renders from it and re-renders the parts that a pushed event changed. No polling.
import { h } from "./dom.js";
import { api, AuthRequired, login } from "./api.js";
import * as instances from "./views/instances.js";
import * as tabs from "./views/tabs.js";
import * as tab from "./views/tab.js";
import * as agents from "./views/agents.js";
import * as profiles from "./views/profiles.js";
import * as settings from "./views/settings.js";

const MAX_FEED = 2000;
export const state = { instances: [], tabs: [], agents: new Map(), feed: [], seen: new Set(), connected: false };
// After "init" the stream replays the recent feed, which init's agent counts include already; the
// first "monitoring" event ends the replay.
let replaying = false;
const listeners = new Set();

// fn(kind, payload) on every change: kind is "monitoring", "action", "agents" or "system".
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed(kind, payload) {
  for (const fn of [...listeners]) fn(kind, payload);
}

function addFeed(event) {
  if (state.seen.has(event.id)) return; // a reconnect replays the recent feed
  state.seen.add(event.id);
  state.feed.push(event);
  if (state.feed.length > MAX_FEED) state.seen.delete(state.feed.shift().id);
  const agent = state.agents.get(event.agentId) ||
    { id: event.agentId, name: event.agentId, connectedAt: event.timestamp, requestCount: 0 };
  if (!replaying || !state.agents.has(event.agentId)) {
    agent.lastActivity = event.timestamp;
    agent.requestCount += 1;
  }
  state.agents.set(agent.id, agent);
  changed("action", event);
}

let source = null;

function connect() {
  source = new EventSource("/api/events?mode=both");
  source.addEventListener("init", (e) => {
    replaying = true;
    for (const agent of JSON.parse(e.data)) state.agents.set(agent.id, agent);
    changed("agents");
  });
  source.addEventListener("action", (e) => addFeed(JSON.parse(e.data)));
  source.addEventListener("progress", (e) => addFeed(JSON.parse(e.data)));
  source.addEventListener("monitoring", (e) => {
    const snap = JSON.parse(e.data);
    replaying = false;
    state.instances = snap.instances;
    state.tabs = snap.tabs;
    changed("monitoring", snap);
  });
  source.addEventListener("system", (e) => changed("system", JSON.parse(e.data)));
  source.onopen = () => setConnected(true);
  source.onerror = async () => {
    setConnected(false);
    try {
      await api("/api/agents"); // EventSource hides the status: ask once whether it was the token
    } catch (err) {
      if (err instanceof AuthRequired) {
        source.close();
        showLogin();
      }
    }
  };
}

function setConnected(up) {
  state.connected = up;
  const el = document.getElementById("conn");
  el.textContent = up ? "live" : "reconnecting…";
  el.className = `conn ${up ? "ok" : "warn"}`;
}

const PAGES = { instances, tabs, tab, agents, profiles, settings };
let cleanup = null;

function route() {
  const [name, ...rest] = (location.hash.replace(/^#\/?/, "") || "tabs").split("/");
  const page = PAGES[name] || tabs;
  if (cleanup) cleanup();
  const main = document.getElementById("main");
  main.replaceChildren();
  for (const a of document.querySelectorAll("#nav a")) {
    a.classList.toggle("active", a.dataset.page === name || (name === "tab" && a.dataset.page === "tabs"));
  }
  cleanup = page.render(main, rest.map(decodeURIComponent)) || null;
}

function showLogin() {
  const main = document.getElementById("main");
  document.getElementById("conn").textContent = "signed out";
  const input = h("input", { type: "password", name: "token", placeholder: "server token", autocomplete: "off" });
  const error = h("p", { class: "error" });
  const form = h("form", { class: "login", onsubmit: async (e) => {
    e.preventDefault();
    try {
      await login(input.value);
      start();
    } catch (err) {
      error.textContent = String(err.message || err);
    }
  } }, h("h2", {}, "Sign in"), h("p", {}, "This server has a token (server.token). Enter it to open the dashboard."),
  input, h("button", { type: "submit" }, "Sign in"), error);
  if (cleanup) cleanup();
  cleanup = null;
  main.replaceChildren(form);
  input.focus();
}

async function start() {
  try {
    await api("/api/agents");
  } catch (err) {
    if (err instanceof AuthRequired) return showLogin();
  }
  if (!source || source.readyState === EventSource.CLOSED) connect();
  window.onhashchange = route;
  route();
}

start();
