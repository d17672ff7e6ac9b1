// A tiny DOM builder: h("div", {class: "x", onclick: fn}, child, "text"). Text is always a text
// node, never HTML, so nothing from the server (titles, URLs, console lines) can inject markup.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function bytes(n) {
  if (n === undefined || n === null) return "";
  const mb = n / (1024 * 1024);
  return mb >= 1024 ? `${(mb / 1024).toFixed(1)} GB` : `${mb.toFixed(0)} MB`;
}

export function time(iso) {
  if (!iso) return "";
  const d = typeof iso === "number" ? new Date(iso * (iso < 1e12 ? 1000 : 1)) : new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleTimeString();
}

export function table(headers, rows, empty = "nothing yet") {
  if (!rows.length) return h("p", { class: "empty" }, empty);
  return h("table", {}, h("thead", {}, h("tr", {}, headers.map((t) => h("th", {}, t)))),
    h("tbody", {}, rows));
}

export function statusClass(status) {
  if (typeof status === "number") return status >= 400 ? "bad" : "ok";
  return { running: "ok", starting: "warn", stopping: "warn", error: "bad", stopped: "muted" }[status] || "";
}
