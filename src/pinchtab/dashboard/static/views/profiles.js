// Profiles: create one, start an instance on it, stop that instance.
import { h, table } from "../dom.js";
import { api } from "../api.js";
import { onChange } from "../app.js";

export function render(main) {
  const body = h("div");
  const error = h("p", { class: "error" });
  const name = h("input", { name: "name", placeholder: "name, e.g. work", required: true });
  const desc = h("input", { name: "description", placeholder: "what it is for (optional)" });
  const form = h("form", { class: "inline", onsubmit: async (e) => {
    e.preventDefault();
    await run(() => api("/profiles", { method: "POST", body: { name: name.value, description: desc.value || undefined } }));
    name.value = desc.value = "";
  } }, name, desc, h("button", { type: "submit" }, "Create profile"));
  main.append(h("h2", {}, "Profiles"), form, error, body);

  const run = async (fn) => {
    error.textContent = "";
    try { await fn(); } catch (err) { error.textContent = String(err.message || err); }
    await draw();
  };
  const draw = async () => {
    let profiles = [];
    try { profiles = (await api("/profiles")).profiles; } catch (err) { error.textContent = String(err.message || err); }
    body.replaceChildren(table(["Profile", "Id", "Description", "Instance", ""], profiles.map((p) => h("tr", { dataset: { profile: p.id } },
      h("td", {}, p.name), h("td", { class: "small" }, p.id), h("td", {}, p.description || ""),
      h("td", {}, p.running ? p.instanceId : ""),
      h("td", {}, p.running
        ? h("button", { onclick: () => run(() => api(`/instances/${encodeURIComponent(p.instanceId)}/stop`, { method: "POST" })) }, "Stop")
        : h("button", { onclick: () => run(() => api("/instances/start", { method: "POST", body: { profileId: p.id } })) }, "Start")))),
    "No profile yet: create one above."));
  };
  draw();
  return onChange((kind) => { if (kind === "system") draw(); });
}
