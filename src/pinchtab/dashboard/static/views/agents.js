// Agents (X-Agent-Id): who is driving the browser, and each one's actions as they happen (route,
// target, outcome, duration, tab) after its history (GET /api/agents/{id}).
import { h, table, time, statusClass } from "../dom.js";
import { api } from "../api.js";
import { state, onChange } from "../app.js";

function row(e) {
  const d = e.details || {};
  const target = d.target || d.ref || d.url || e.message || "";
  return h("tr", { class: "event", dataset: { id: e.id } },
    h("td", {}, time(e.timestamp)),
    h("td", {}, e.agentId),
    h("td", {}, e.channel === "progress" ? "progress" : d.action || (e.type !== "other" ? e.type : e.path.split("/").pop())),
    h("td", { class: "mono" }, e.method ? `${e.method} ${e.path.replace(/^\/tabs\/([^/]{8})[^/]+/, "/tabs/$1…")}` : ""),
    h("td", { class: "mono" }, target),
    h("td", { class: statusClass(d.status ?? 0) }, d.status ?? ""),
    h("td", {}, d.durationMs !== undefined ? `${d.durationMs} ms` : ""),
    h("td", {}, d.tabId ? h("a", { href: `#/tab/${encodeURIComponent(d.tabId)}` }, d.tabId.slice(0, 8)) : ""));
}

const HEAD = ["Time", "Agent", "Action", "Route", "Target", "Status", "Duration", "Tab"];

export function render(main, [agentId]) {
  const list = h("div", { class: "agents" });
  const events = h("div", { class: "events" });
  const heading = h("h3", {}, agentId ? `Agent ${agentId}` : "All agents: live");
  main.append(h("h2", {}, "Agents"), list, heading, events);
  const shown = new Set();
  let body = null;

  const drawList = () => {
    const agents = [...state.agents.values()].sort((a, b) => String(b.lastActivity).localeCompare(String(a.lastActivity)));
    list.replaceChildren(agents.length ? h("ul", {}, agents.map((a) => h("li", { class: a.id === agentId ? "active" : "" },
      h("a", { href: `#/agents/${encodeURIComponent(a.id)}` }, a.name || a.id),
      h("span", { class: "small" }, ` ${a.requestCount} requests, last ${time(a.lastActivity)}`)))) :
      h("p", { class: "empty" }, "No agent has called yet. Agents name themselves with X-Agent-Id (pinchtab --agent-id, the MCP client's name)."));
    if (agentId) list.querySelector("ul")?.prepend(h("li", {}, h("a", { href: "#/agents" }, "all agents")));
  };
  const add = (e) => {
    if (shown.has(e.id) || (agentId && e.agentId !== agentId)) return;
    shown.add(e.id);
    if (!body) {
      const t = table(HEAD, [h("tr", {})]);
      body = t.querySelector("tbody");
      body.replaceChildren();
      events.replaceChildren(t);
    }
    body.prepend(row(e)); // newest first
  };
  const fill = (items) => {
    if (!items.length) events.replaceChildren(h("p", { class: "empty" }, "No events yet."));
    items.forEach(add);
  };

  drawList();
  if (agentId) {
    api(`/api/agents/${encodeURIComponent(agentId)}?mode=both`).then((d) => fill(d.events))
      .catch((err) => events.replaceChildren(h("p", { class: "error" }, String(err.message || err))));
  } else {
    fill(state.feed);
  }
  return onChange((kind, payload) => {
    if (kind === "action") { add(payload); drawList(); }
    if (kind === "agents") drawList();
  });
}
