// Settings: the server's config (GET /api/config) with a form for the keys changed most, saved
// through PUT /api/config into the server's config file. Secrets never reach the page: the token
// field is write-only (empty keeps the token set); changes wait for a restart, as the answer says.
import { h } from "../dom.js";
import { api, logout } from "../api.js";

// [key path, kind, label]: a switch, a number or the write-only token.
const FIELDS = [
  ["browser.headless", "bool", "Headless browser"],
  ["security.allowEvaluate", "bool", "Allow evaluate (run JavaScript)"],
  ["security.allowCookies", "bool", "Allow cookies"],
  ["security.allowStateExport", "bool", "Allow state export"],
  ["security.allowNetworkIntercept", "bool", "Allow network intercept"],
  ["security.allowUpload", "bool", "Allow upload"],
  ["security.allowDownload", "bool", "Allow download"],
  ["security.allowClipboard", "bool", "Allow clipboard"],
  ["security.allowScreencast", "bool", "Allow screencast"],
  ["instances.restart.maxRestarts", "number", "Restarts in a row before giving up"],
  ["instances.stopGraceSec", "number", "Stop grace (seconds)"],
  ["instances.proxyMarginSec", "number", "Proxy margin (seconds)"],
  ["server.token", "token", "API token (write-only)"],
];

const get = (obj, path) => path.split(".").reduce((o, k) => (o == null ? undefined : o[k]), obj);

function nested(path, value) {
  return path.split(".").reduceRight((inner, key) => ({ [key]: inner }), value);
}

function merge(into, part) {
  for (const [k, v] of Object.entries(part)) {
    into[k] = v && typeof v === "object" && into[k] && typeof into[k] === "object" ? merge(into[k], v) : v;
  }
  return into;
}

function tree(value) {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return h("dl", {}, Object.entries(value).map(([k, v]) => [h("dt", {}, k), h("dd", {}, tree(v))]));
  }
  return h("code", {}, Array.isArray(value) ? JSON.stringify(value) : String(value));
}

function input([path, kind], cfg) {
  if (kind === "bool") return h("input", { type: "checkbox", name: path, checked: !!get(cfg, path) });
  if (kind === "number") return h("input", { type: "number", name: path, step: "any", value: get(cfg, path) });
  const set = get(cfg, "server.tokenSet");
  return h("input", { type: "password", name: path, autocomplete: "new-password",
    placeholder: set ? "set (leave empty to keep it)" : "not set" });
}

function restartNote(answer) {
  if (!answer.restartRequired) return h("p", { class: "small" }, "The server runs with this configuration.");
  return h("p", { class: "warn restart" },
    `Restart required: ${answer.restartReasons.join(", ")} take effect when the server restarts.`);
}

function form(answer, show) {
  const cfg = answer.config;
  const status = h("p", { class: "small status" });
  const inputs = FIELDS.map((field) => [field, input(field, cfg)]);
  const save = async (event) => {
    event.preventDefault();
    const update = {};
    for (const [[path, kind], el] of inputs) {
      if (kind === "bool") merge(update, nested(path, el.checked));
      else if (kind === "number" && el.value !== "") merge(update, nested(path, Number(el.value)));
      else if (kind === "token" && el.value !== "") merge(update, nested(path, el.value));
    }
    status.textContent = "saving…";
    try {
      show(await api("/api/config", { method: "PUT", body: update }));
    } catch (err) {
      status.className = "error status";
      status.textContent = String(err.message || err);
    }
  };
  return h("form", { class: "settings-form", onsubmit: save },
    h("p", { class: "small" }, `Saved to ${answer.configPath}.`),
    restartNote(answer),
    h("div", { class: "fields" }, inputs.map(([[, , label], el]) => h("label", {}, el, " ", label))),
    h("button", { type: "submit" }, "Save"), status);
}

export function render(main) {
  const body = h("div", { class: "settings" }, "loading…");
  const show = (answer) => body.replaceChildren(form(answer, show),
    h("h3", {}, "The whole configuration"), tree(answer.config));
  main.append(h("h2", {}, "Settings"),
    h("p", { class: "small" }, "The server's configuration (file, environment, flags). Secrets are write-only."),
    body, h("button", { onclick: async () => { await logout(); location.reload(); } }, "Sign out"));
  api("/api/config").then(show)
    .catch((err) => body.replaceChildren(h("p", { class: "error" }, String(err.message || err))));
  return null;
}
