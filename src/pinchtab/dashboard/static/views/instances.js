// Instances: status, pid, memory, restarts and tabs of every browser instance; stop or restart one.
import { h, bytes, table, statusClass, time } from "../dom.js";
import { api } from "../api.js";
import { state, onChange } from "../app.js";

export function render(main) {
  const body = h("div");
  const error = h("p", { class: "error" });
  main.append(h("h2", {}, "Instances"), error, body);

  const act = async (path) => {
    error.textContent = "";
    try {
      await api(path, { method: "POST" });
    } catch (err) {
      error.textContent = String(err.message || err);
    }
  };

  const draw = () => {
    const rows = state.instances.map((i) => h("tr", { dataset: { instance: i.id } },
      h("td", {}, i.id, i.default ? h("span", { class: "tag" }, "default") : null),
      h("td", { class: statusClass(i.status) }, i.status, i.error ? h("div", { class: "small" }, i.error) : null),
      h("td", {}, i.pid ?? ""),
      h("td", {}, bytes(i.memoryBytes)),
      h("td", {}, i.restarts ?? 0),
      h("td", {}, i.tabs ?? 0),
      h("td", {}, i.profileName || i.profileId || "(temporary)"),
      h("td", {}, i.port ?? ""),
      h("td", {}, time(i.startedAt)),
      h("td", {},
        h("button", { onclick: () => act(`/instances/${encodeURIComponent(i.id)}/restart`) }, "Restart"),
        i.status !== "stopped" ? h("button", { onclick: () => act(`/instances/${encodeURIComponent(i.id)}/stop`) }, "Stop") : null)));
    body.replaceChildren(table(["Instance", "Status", "PID", "Memory", "Restarts", "Tabs", "Profile", "Port", "Started", ""],
      rows, "No instance runs: start one from Profiles."));
  };
  draw();
  return onChange((kind) => { if (kind === "monitoring") draw(); });
}
