// One tab: its live view (PinchTab's screencast websocket: binary JPEG frames), a take-over that
// locks the tab for the dashboard (agents get 423 until handed back) and sends the person's clicks
// and keys as actions, and the tab's console, errors and network log, reloaded when the tab changes.
import { h, table, time, statusClass } from "../dom.js";
import { api, screenshotUrl } from "../api.js";
import { state, onChange } from "../app.js";

const OWNER = "dashboard";
const TAKEOVER_SEC = 600;

export function render(main, [tabId]) {
  if (!tabId) { location.hash = "#/tabs"; return null; }
  const enc = encodeURIComponent(tabId);
  const info = () => state.tabs.find((t) => t.id === tabId);
  const title = h("h2", {}, "Tab");
  const url = h("div", { class: "url" });
  const status = h("span", { class: "small", id: "live-status" }, "connecting…");
  const error = h("p", { class: "error" });
  const canvas = h("canvas", { id: "live", width: "800", height: "600" });
  const still = h("img", { id: "still", alt: "", hidden: true });
  const takeBtn = h("button", { id: "takeover" }, "Take over");
  const logs = h("div", { class: "logs" });
  const pick = h("div", { class: "subnav" });
  let which = "console";
  let taken = false;
  let lastVersion = -1;

  const wrap = h("div", { class: "live-wrap", tabindex: "0" }, canvas, still); // takes the keys when taken over
  main.append(h("a", { href: "#/tabs", class: "small" }, "← all tabs"), title, url,
    h("div", { class: "live-bar" }, takeBtn, status), error, wrap, pick, logs);

  // -- live view ------------------------------------------------------------------------------
  const ctx = canvas.getContext("2d");
  let ws = null;
  let drawing = false;
  let pending = null;
  let lastFrameAt = 0;
  // Chromium sends screencast frames when the page repaints, and a tab in the background may not:
  // after a change with no frame within a second, one screenshot stands in (once, not a loop).
  const nudge = () => {
    const asked = Date.now();
    setTimeout(async () => {
      if (canvas.hidden || lastFrameAt >= asked) return;
      try {
        const res = await fetch(screenshotUrl(tabId, `nudge-${asked}`, 1), { credentials: "same-origin" });
        if (res.ok && lastFrameAt < asked) { pending = await res.blob(); drawFrame(); }
      } catch (err) { /* the next change tries again */ }
    }, 1000);
  };
  const drawFrame = async () => {
    if (drawing || !pending) return;
    drawing = true;
    const blob = pending;
    pending = null;
    try {
      const bitmap = await createImageBitmap(blob);
      if (canvas.width !== bitmap.width) canvas.width = bitmap.width;
      if (canvas.height !== bitmap.height) canvas.height = bitmap.height;
      ctx.drawImage(bitmap, 0, 0);
      bitmap.close();
      canvas.dataset.frames = String(Number(canvas.dataset.frames || 0) + 1);
    } catch (err) { /* a frame that does not decode: the next one will */ }
    drawing = false;
    drawFrame();
  };
  let stillSize = null; // the shown screenshot's pixels (an <img> loading a new src reports 0)
  const showStill = () => { // no screencast (off, or not supported): a screenshot per change
    canvas.hidden = true;
    still.hidden = false;
    const t = info();
    const next = new Image();
    next.onload = () => { // swapped in once loaded: no blank view, and clicks map to what is shown
      stillSize = { w: next.naturalWidth, h: next.naturalHeight };
      still.src = next.src;
    };
    next.src = screenshotUrl(tabId, `${t ? t.version : 0}-${Date.now()}`, 1);
  };
  const connect = () => {
    const q = new URLSearchParams({ tabId, quality: "60", maxWidth: "1280", fps: "10" });
    ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/screencast?${q}`);
    ws.binaryType = "blob";
    ws.onopen = () => { status.textContent = "live"; };
    ws.onmessage = (e) => {
      if (typeof e.data === "string") return; // status messages
      pending = e.data instanceof Blob ? e.data : new Blob([e.data], { type: "image/jpeg" });
      lastFrameAt = Date.now();
      canvas.hidden = false;
      still.hidden = true;
      drawFrame();
    };
    ws.onclose = () => {
      status.textContent = "live view unavailable (security.allowScreencast off?): showing screenshots";
      showStill();
    };
  };
  connect();

  // -- take-over ------------------------------------------------------------------------------
  const act = async (body) => {
    try {
      await api(`/tabs/${enc}/action`, { method: "POST", body, headers: { "X-Owner": OWNER } });
    } catch (err) { error.textContent = String(err.message || err); }
  };
  const setTaken = async (on) => {
    error.textContent = "";
    try {
      if (on) await api(`/tabs/${enc}/lock`, { method: "POST", body: { owner: OWNER, timeoutSec: TAKEOVER_SEC } });
      else await api(`/tabs/${enc}/unlock`, { method: "POST", body: { owner: OWNER } });
      taken = on;
    } catch (err) { error.textContent = String(err.message || err); }
    takeBtn.textContent = taken ? "Hand back" : "Take over";
    canvas.classList.toggle("taken", taken);
    still.classList.toggle("taken", taken);
    if (taken) wrap.focus({ preventScroll: true });
  };
  takeBtn.addEventListener("click", () => setTaken(!taken));
  // The view shown (frames on the canvas, else the screenshot) and its pixel size: a click is sent
  // in those pixels with frameW/frameH, which the server scales to the page's CSS viewport.
  const view = () => (canvas.hidden ? { el: still, w: stillSize && stillSize.w, h: stillSize && stillSize.h }
    : { el: canvas, w: canvas.width, h: canvas.height });
  const point = (e) => {
    const { el, w, h: ht } = view();
    const r = el.getBoundingClientRect();
    return { x: Math.round(((e.clientX - r.left) / r.width) * w), y: Math.round(((e.clientY - r.top) / r.height) * ht),
      frameW: w, frameH: ht };
  };
  for (const el of [canvas, still]) {
    el.addEventListener("click", (e) => {
      if (!taken || !view().w) return;
      wrap.focus({ preventScroll: true });
      act({ kind: "click", ...point(e), hasXY: true });
    });
    el.addEventListener("wheel", (e) => {
      if (!taken || !view().w) return;
      e.preventDefault();
      act({ kind: "mouse-wheel", ...point(e), hasXY: true, deltaY: Math.round(e.deltaY) });
    }, { passive: false });
  }
  wrap.addEventListener("keydown", (e) => {
    if (!taken) return;
    e.preventDefault();
    if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) return act({ kind: "keyboard-inserttext", text: e.key });
    const mods = [e.ctrlKey && "Control", e.altKey && "Alt", e.metaKey && "Meta", e.shiftKey && e.key.length > 1 && "Shift"];
    act({ kind: "press", key: [...mods.filter(Boolean), e.key].join("+") });
  });

  // -- console, errors, network ---------------------------------------------------------------
  const loaders = {
    console: async () => {
      const data = await api(`/tabs/${enc}/console?limit=200`);
      return table(["Time", "Level", "Message"], (data.console || []).map((m) =>
        h("tr", {}, h("td", {}, time(m.timestamp || m.time)), h("td", {}, m.level || m.type || ""),
          h("td", { class: "mono" }, m.message || m.text || ""))), "No console messages.");
    },
    errors: async () => {
      const data = await api(`/tabs/${enc}/errors?limit=200`);
      return table(["Time", "Error", "Where"], (data.errors || []).map((m) =>
        h("tr", {}, h("td", {}, time(m.timestamp || m.time)), h("td", { class: "mono bad" }, m.message || m.text || ""),
          h("td", { class: "small" }, m.url || m.source || ""))), "No errors.");
    },
    network: async () => {
      const data = await api(`/tabs/${enc}/network?limit=200`);
      return table(["Method", "Status", "Type", "URL", "ms"], (data.entries || []).map((r) =>
        h("tr", {}, h("td", {}, r.method || ""), h("td", { class: statusClass(r.status || 0) }, r.status ?? (r.failed ? "failed" : "…")),
          h("td", {}, r.resourceType || r.type || ""), h("td", { class: "mono" }, r.url || ""),
          h("td", {}, r.durationMs ?? r.duration ?? ""))), "No requests.");
    },
  };
  const loadLogs = async () => {
    try { logs.replaceChildren(await loaders[which]()); } catch (err) { logs.replaceChildren(h("p", { class: "error" }, String(err.message || err))); }
  };
  for (const name of Object.keys(loaders)) {
    pick.append(h("button", { dataset: { log: name }, onclick: () => { which = name; mark(); loadLogs(); } }, name));
  }
  const mark = () => pick.querySelectorAll("button").forEach((b) => b.classList.toggle("active", b.dataset.log === which));
  mark();

  const update = () => {
    const t = info();
    title.textContent = t ? t.title || "(untitled)" : `Tab ${tabId} (closed?)`;
    url.textContent = t ? t.url : "";
    if (t && t.version !== lastVersion) {
      lastVersion = t.version;
      loadLogs();
      if (!still.hidden) showStill();
      else nudge();
    }
  };
  update();
  const off = onChange((kind, payload) => {
    if (kind === "monitoring") update();
    if (kind === "action" && payload.details && payload.details.tabId === tabId) loadLogs();
  });
  return () => {
    off();
    if (ws) { ws.onclose = null; ws.close(); }
    if (taken) setTaken(false);
  };
}
