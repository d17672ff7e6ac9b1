// Settings: the server's effective configuration, read-only; secrets (the token) are never sent
// to the page, only whether they are set.
import { h } from "../dom.js";
import { api, logout } from "../api.js";

function tree(value, path = "") {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return h("dl", {}, Object.entries(value).map(([k, v]) => [
      h("dt", {}, k), h("dd", {}, tree(v, path ? `${path}.${k}` : k))]));
  }
  return h("code", {}, Array.isArray(value) ? JSON.stringify(value) : String(value));
}

export function render(main) {
  const body = h("div", { class: "settings" }, "loading…");
  main.append(h("h2", {}, "Settings"),
    h("p", { class: "small" }, "The effective configuration (file, environment, flags). Secrets are write-only: set them in the config file or environment."),
    body, h("button", { onclick: async () => { await logout(); location.reload(); } }, "Sign out"));
  api("/api/config").then((cfg) => body.replaceChildren(tree(cfg)))
    .catch((err) => body.replaceChildren(h("p", { class: "error" }, String(err.message || err))));
  return null;
}
