// Every tab of every instance: title, URL and a thumbnail that reloads when something acts on the
// tab (the monitoring event's per-tab version moves), not on a timer.
import { h } from "../dom.js";
import { screenshotUrl } from "../api.js";
import { state, onChange } from "../app.js";

export function render(main) {
  const grid = h("div", { class: "grid", id: "tab-grid" });
  main.append(h("h2", {}, "Tabs"), grid);
  const cards = new Map(); // tab id -> {card, img, title, url, version}

  const draw = () => {
    const ids = new Set(state.tabs.map((t) => t.id));
    for (const [id, c] of cards) if (!ids.has(id)) { c.card.remove(); cards.delete(id); }
    for (const t of state.tabs) {
      let c = cards.get(t.id);
      if (!c) {
        const img = h("img", { alt: "", loading: "lazy" });
        const title = h("div", { class: "title" });
        const url = h("div", { class: "url" });
        const card = h("a", { class: "card tab-card", href: `#/tab/${encodeURIComponent(t.id)}`, dataset: { tab: t.id } },
          h("div", { class: "thumb" }, img), title, url, h("div", { class: "small" }, t.instanceId || ""));
        c = { card, img, title, url, version: -1 };
        cards.set(t.id, c);
        grid.append(card);
      }
      c.title.textContent = t.title || "(untitled)";
      c.url.textContent = t.url || "";
      if (c.version !== t.version || c.shownUrl !== t.url) {
        c.version = t.version;
        c.shownUrl = t.url;
        c.img.src = screenshotUrl(t.id, `${t.version}-${encodeURIComponent(t.url || "")}`);
      }
    }
    if (!state.tabs.length) grid.replaceChildren(h("p", { class: "empty" }, "No tab is open."));
    else grid.querySelector(".empty")?.remove();
  };
  draw();
  return onChange((kind) => { if (kind === "monitoring") draw(); });
}
