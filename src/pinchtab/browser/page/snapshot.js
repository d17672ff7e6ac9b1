// Accessibility snapshot walker. Runs in pinchtab's isolated world, so page scripts can neither
// see nor break it. Roles and names are the ones Chromium computes (computedRole/computedName,
// enabled by --enable-blink-features=ComputedAccessibilityInfo); it returns
// [json, elements]: json is {url, title, nodes} (or {url, title, missing} when the selector
// matches nothing) and elements[i] is the DOM node of nodes[i], which the caller serialises
// "deep" to read its backendNodeId.
(function (opts) {
  const INTERACTIVE = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio',
    'combobox', 'listbox', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'slider',
    'spinbutton', 'switch', 'tab', 'treeitem', 'gridcell-interactive']);
  const SKIP_ROLE = new Set(['', 'generic', 'none', 'presentation', 'rowgroup', 'LineBreak',
    'strong', 'emphasis', 'mark', 'time', 'code', 'subscript', 'superscript', 'deletion',
    'insertion', 'abbr', 'Abbr', 'Ruby', 'RubyAnnotation', 'legend', 'caption', 'LabelText']);
  const SKIP_TAG = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta',
    'link', 'base']);
  const LANDMARK = { banner: 'Header', navigation: 'Navigation', contentinfo: 'Footer',
    complementary: 'Sidebar', main: 'Main', search: 'Search', region: '', dialog: 'Dialog',
    alertdialog: 'Dialog' };
  const CONTAINER = new Set(['form', 'group', 'list', 'toolbar', 'menu', 'menubar', 'tablist',
    'dialog', 'alertdialog', 'navigation', 'radiogroup', 'region', 'table', 'row', 'grid',
    'tree', 'listbox', 'banner', 'contentinfo', 'complementary', 'search', 'article', 'treegrid',
    'listitem']);
  const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'slider', 'spinbutton']);
  const CHECK_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
  const NAME_MAX = 150;
  const ITEM_MAX = 80;
  // input types that say what a field holds ("departure date" is the date input)
  const TYPED_INPUTS = new Set(['date', 'datetime-local', 'month', 'week', 'time', 'email', 'tel', 'url',
    'password', 'file', 'color', 'number']);
  const interactiveOnly = !!opts.interactive;
  const maxDepth = opts.depth == null ? Infinity : opts.depth;
  // The node cap (browser.maxSnapshotNodes): a page of 400k controls stops the walk here, in the
  // page, so the huge tree is never serialised over CDP. DOM nodes walked without being kept
  // (wrappers, whitespace, hidden subtrees' roots) count too, at a twentieth of a kept one each.
  const maxNodes = opts.maxNodes == null ? Infinity : opts.maxNodes;
  const maxVisits = maxNodes * 20;
  let visits = 0;
  let capped = false;

  const data = [];
  const elements = [];
  // The change signal (changes.py): a counter of DOM mutations and input events in every
  // document walked, kept in this isolated world where the page cannot see or reset it.
  const watch = globalThis.__pinchtabChanges ||
    (globalThis.__pinchtabChanges = { n: 0, obs: [], docs: new WeakSet() });
  function observe(doc) {
    if (watch.docs.has(doc)) return;
    watch.docs.add(doc);
    const bump = () => { watch.n++; };
    const obs = new MutationObserver((records) => { watch.n += records.length; });
    obs.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
    doc.addEventListener('input', bump, true);
    doc.addEventListener('change', bump, true);
    watch.obs = watch.obs.filter((o) => o.doc.defaultView).slice(-63);
    watch.obs.push({ obs: obs, doc: doc });
  }
  observe(document);
  let focused = document.activeElement;
  while (focused && focused.shadowRoot && focused.shadowRoot.activeElement) {
    focused = focused.shadowRoot.activeElement;
  }
  let lastHeading = '';

  const clip = (s) => {
    s = s.replace(/\s+/g, ' ').trim();
    return s.length > NAME_MAX ? s.slice(0, NAME_MAX - 1) + '\u2026' : s;
  };

  // Text of an element with spaces between its text nodes (textContent glues table cells
  // together: "#1002Jun 3Bilal"), read only up to about max characters.
  function textOf(el, max) {
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let out = '';
    for (let t = walker.nextNode(); t && out.length < max; t = walker.nextNode()) {
      const p = t.parentNode && t.parentNode.localName;
      if (p === 'script' || p === 'style') continue;
      const s = t.data.trim();
      if (s) out += (out ? ' ' : '') + s;
    }
    return clip(out).slice(0, max);
  }

  // A repeated item: an element next to a sibling of the same tag and class (a mail row, a
  // comment, a product card, a settings row). Its text tells which item a button belongs to
  // ("reply to Gary", "edit for Alice"); read lazily, for items that hold an emitted node.
  // Inline elements and class-less layout wrappers next to each other are not items.
  const NOT_ITEM = new Set(['span', 'a', 'b', 'i', 'em', 'strong', 'small', 'label', 'button', 'code', 'kbd',
    'abbr', 'sup', 'sub', 'img', 'svg', 'input', 'select', 'textarea', 'option', 'br', 'hr', 'td', 'th',
    'script', 'style', 'template', 'slot']);
  const PLAIN_ITEM = new Set(['li', 'tr', 'article', 'details', 'dd', 'figure']);
  function sameKind(a, b) {
    if (!b || a.localName !== b.localName || NOT_ITEM.has(a.localName)) return false;
    const ca = a.getAttribute('class') || '';
    if (ca !== (b.getAttribute('class') || '')) return false;
    if (ca) return true;
    const ra = a.getAttribute('role');
    return PLAIN_ITEM.has(a.localName) || (!!ra && ra === b.getAttribute('role'));
  }
  // The sibling beside el, past dividers (a chat's "Today", a list's <hr>): an item alone
  // between two dividers is still one of a run.
  function beside(el, next) {
    let s = next ? el.nextElementSibling : el.previousElementSibling;
    while (s && (s.localName === 'hr' || s.getAttribute('role') === 'separator')) {
      s = next ? s.nextElementSibling : s.previousElementSibling;
    }
    return s;
  }
  // A docs sidebar's "Reference" button (aria-expanded) above the unnamed list it opens: the
  // list's links are "Errors under Reference", not just "Errors" in the sidebar.
  function disclosureLabel(el) {
    const b = el.previousElementSibling;  // a <details>' list follows its <summary>
    if (!b) return '';
    const ctl = b.getAttribute('aria-controls');
    if (!(b.hasAttribute('aria-expanded') || b.localName === 'summary' || (ctl && el.id && ctl.split(/\s+/).includes(el.id)))) return '';
    return clip(b.computedName || b.textContent || '');
  }
  function itemText(item) {
    if (item.text === null) item.text = textOf(item.el, ITEM_MAX);
    return item.text;
  }
  function itemFor(name, ctx) {
    // an empty item (a table cell around a checkbox) defers to the item around it; one that
    // says no more than the node's own name or its parent means the node is the item itself
    for (let it = ctx.item, k = 0; it && k < 3; it = it.up, k++) {
      const t = itemText(it);
      if (!t) continue;
      return t === ctx.parent || name.includes(t) ? '' : t;
    }
    return '';
  }

  function emit(node, role, name, depth, ctx) {
    const d = { r: role, n: name, d: depth };
    if (ctx.section) d.s = ctx.section;
    if (ctx.parent) d.p = ctx.parent;
    if (lastHeading && role !== 'heading') d.h = lastHeading;
    if (ctx.item && (INTERACTIVE.has(role) || role === 'generic')) {
      const it = itemFor(name, ctx);
      if (it) d.i = it;
    }
    data.push(d);
    elements.push(node);
    return d;
  }

  function describe(el, role, d) {
    const tag = el.localName;
    if (tag === 'input' && TYPED_INPUTS.has(el.type)) d.ty = el.type;
    if (VALUE_ROLES.has(role)) {
      let v = null;
      if (tag === 'input' || tag === 'textarea') {
        // A password or one-time code shows that it is filled, not what it holds nor how long it is.
        const ac = (el.getAttribute('autocomplete') || '').toLowerCase();
        const secret = el.type === 'password' || /\b(current-password|new-password|one-time-code)\b/.test(ac);
        v = secret ? (el.value ? '\u2022'.repeat(8) : '') : el.value;
      } else if (tag === 'select') {
        const o = el.selectedOptions && el.selectedOptions[0];
        v = o ? o.text : '';
      } else if (el.isContentEditable) {
        v = el.innerText;
      } else if (el.hasAttribute('aria-valuenow')) {
        v = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
      }
      if (v) d.v = clip(String(v));
      const ph = el.getAttribute('placeholder');
      if (ph && ph !== d.n) d.ph = clip(ph);
    }
    if (CHECK_ROLES.has(role)) {
      if (tag === 'input') d.c = el.checked;
      else { const a = el.getAttribute('aria-checked'); if (a) d.c = a === 'mixed' ? 'mixed' : a === 'true'; }
    }
    const pressed = el.getAttribute('aria-pressed');
    if (pressed === 'true' || pressed === 'false') d.pr = pressed === 'true';
    if ((el.matches && el.matches(':disabled')) || el.getAttribute('aria-disabled') === 'true') d.x = true;
    if (el === focused) d.f = true;
    const exp = el.getAttribute('aria-expanded');
    if (exp === 'true' || exp === 'false') d.e = exp === 'true';
    else if (tag === 'details') d.e = el.open;
    else if (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details') d.e = el.parentElement.open;
    const sel = el.getAttribute('aria-selected');
    if (sel === 'true') d.sl = true;
    else if (tag === 'option' && el.selected) d.sl = true;
    if (el.getAttribute('aria-required') === 'true' || el.required) d.rq = true;
    // a modal dialog: the page behind it cannot be used while it is open (find prefers its content)
    if ((role === 'dialog' || role === 'alertdialog') &&
        (el.getAttribute('aria-modal') === 'true' || (tag === 'dialog' && el.matches(':modal')))) d.m = true;
    const title = el.getAttribute('title');
    if (title && title !== d.n) d.t = clip(title);
    else if (role === 'button' && !title && d.n) {
      const to = movesTo(el, d.n);
      if (to) d.t = to;
    }
    else if (title) d.tn = 1;  // named by its title (the title: locator)
    const testid = el.getAttribute('data-testid');
    if (testid) d.ti = clip(testid);
    if (ICON_ROLES.has(role) && d.n && tag !== 'input' && (!showsWords(el) || (role === 'button' && wordsPushedOut(el)))) d.ic = 1;
    if (ICON_ROLES.has(role) && !d.n && !d.t) {
      // An unnamed icon button shows only its glyph: "edit icon" is what a person sees.
      const glyph = glyphOf(el);
      if (glyph) { d.t = glyph + ' icon'; d.ic = 1; }
      else {
        // an icon drawn by a child that carries the tooltip (Django's calendar and clock links:
        // <a><span class="date-icon" title="Choose a Date"></span></a>), which Chromium's name skips
        const tip = el.querySelector('[title]');
        const said = tip ? tip.getAttribute('title').trim() : '';
        if (said) { d.t = clip(said); d.ic = 1; }
      }
    }
    if (d.e === false) {
      // A collapsed section hides what a person is looking for: say what it holds, so "last login"
      // finds the "Important dates" toggle (to open first) rather than nothing.
      const held = heldText(el, tag);
      if (held) d.hc = held;
    }
    if (LABELLED_ROLES.has(role) && el.id && d.n.length > LABEL_MAX) {
      // A name made of a caption and the help text after it (aria-labelledby on a box holding
      // both): the caption its <label> gives is the name, the rest describes it.
      const own = labelText(labelsFor(el.getRootNode()).get(el.id));
      if (own && d.n.startsWith(own) && !d.t) {
        d.t = clip(d.n.slice(own.length));
        d.n = own;
      }
    }
    if (role === 'cell' || role === 'gridcell' || INTERACTIVE.has(role)) {
      const col = columnOf(el, role);
      if (col) d.co = col;
    }
    if (LABELLED_ROLES.has(role) || (role === 'button' && el.hasAttribute('aria-haspopup'))) {
      // The label a person reads next to a control the page did not tie to it (a <label for>
      // overridden by aria-labelledby, a caption above a widget, a checkbox's text beside it).
      const lb = visualLabel(el, d.n);
      if (lb) d.lb = lb;
    }
  }

  // (the walker's naming helpers, snapshot_names.js, are put here when it is loaded: snapshot.py)
  /* @include snapshot_names.js */

  // computedRole costs a few microseconds a call and a data table has thousands of cells. A cell's
  // role depends only on its tag and its table (cell or gridcell), so siblings with no role
  // attribute share the first one's answer.
  const SIBLING_ROLE_TAGS = new Set(['td']);
  const siblingRoles = new WeakMap();
  function roleOf(el, tag) {
    if (!SIBLING_ROLE_TAGS.has(tag) || el.hasAttribute('role') || !el.parentElement) return el.computedRole;
    const parent = el.parentElement;
    let known = siblingRoles.get(parent);
    if (known === undefined) siblingRoles.set(parent, known = el.computedRole);
    return known;
  }

  // Controls Chromium gives no ARIA role (computedRole ''), or only 'generic', that an agent
  // still has to see and use.
  const TEXTLIKE_INPUTS = new Set(['date', 'datetime-local', 'month', 'week', 'time', 'color']);
  function fallbackRole(el, tag) {
    if (tag === 'input' && TEXTLIKE_INPUTS.has(el.type)) return 'textbox';
    if (tag === 'iframe' || tag === 'frame') return 'Iframe';  // its content follows, one level deeper
    if (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details') return 'button';
    return '';
  }

  function visitChildren(parent, depth, ctx, owner) {
    const kids = parent.localName === 'slot' ? parent.assignedNodes({ flatten: true }) : null;
    if (kids && kids.length) {
      for (const k of kids) { if (capped) break; visit(k, depth, ctx, owner); }
      return;
    }
    for (let c = parent.firstChild; c && !capped; c = c.nextSibling) visit(c, depth, ctx, owner);
  }

  // owner: the nearest emitted ancestor's record (text already in its name is not repeated).
  function visit(node, depth, ctx, owner) {
    if (data.length >= maxNodes || ++visits > maxVisits) { capped = true; return; }
    if (node.nodeType === 3) {
      if (interactiveOnly || ctx.quiet) return;
      const text = clip(node.data);
      if (!text) return;
      if (owner && owner.n && owner.n.includes(text)) return;
      emit(node, 'text', text, depth, ctx);
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node;
    const tag = el.localName;
    if (SKIP_TAG.has(tag)) return;
    if (el.getAttribute('aria-hidden') === 'true' || el.inert) return;
    // Visible (one call for most elements); rendered but visibility:hidden; or not rendered.
    let hidden = false;
    if (!el.checkVisibility({ visibilityProperty: true })) {
      if (el.checkVisibility()) hidden = true;
      else {
        // display:contents has no box, so checkVisibility() says false, yet its children show
        // (a web component whose :host is display:contents, a layout wrapper).
        const style = el.ownerDocument.defaultView.getComputedStyle(el);
        if (style.display !== 'contents') return;
        hidden = style.visibility !== 'visible';
      }
    }
    let role = roleOf(el, tag) || fallbackRole(el, tag);
    if (role === 'generic' && el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) role = 'textbox';
    // A dropdown's options are its value (the combobox shows it); a list box's (<select multiple>
    // or size > 1) are on screen, each to be picked, so the interactive snapshot keeps them.
    if (tag === 'option' && interactiveOnly) {
      const box = el.closest('select');
      if (box && !(box.multiple || box.size > 1)) role = '';
    }
    let computedName = null;  // asked of Chromium at most once per element
    const nameOf = () => (computedName === null ? (computedName = clip(el.computedName || '')) : computedName);
    // Headings give later nodes their context (find's "under Billing") even when not emitted.
    if (role === 'heading' && !hidden) lastHeading = nameOf();
    let rec = null;
    let childCtx = ctx;
    let childDepth = depth;
    let childOwner = owner;
    if (!hidden) {
      let clickable = SKIP_ROLE.has(role) &&
        (el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.tabIndex >= 0));
      const drawn = SKIP_ROLE.has(role) ? drawnTab(el, clickable) : '';
      if (drawn) { role = 'tab'; clickable = false; }
      const keep = clickable || (!SKIP_ROLE.has(role) && (!interactiveOnly || INTERACTIVE.has(role) || role === 'Iframe'));
      if (keep) {
        let name = drawn || nameOf();
        if (role === 'Iframe' && !name) name = clip(el.getAttribute('name') || '');
        if (clickable) {
          // A <div onclick> or focusable span: no ARIA role, but an agent can act on it.
          role = 'clickable';
          if (!name) name = clip(el.innerText || '');
        }
        rec = emit(el, role, name, depth, ctx);
        describe(el, role, rec);
        if (drawn && DRAWN_TAB_ON.test(el.getAttribute('class'))) rec.sl = true;
        childDepth = depth + 1;
        childOwner = rec;
      }
      if (CONTAINER.has(role) || role in LANDMARK) {
        // A table row's name is empty; its cells' text says which row a button belongs to.
        let label = nameOf();
        if (!label && role === 'row') label = textOf(el, ITEM_MAX);
        if (!label && (role === 'list' || role === 'group')) label = disclosureLabel(el);
        const landmark = LANDMARK[role];
        childCtx = { section: ctx.section, parent: label || ctx.parent, quiet: ctx.quiet, item: ctx.item };
        if (landmark !== undefined && (label || landmark)) childCtx.section = label || landmark;
      }
    }
    // ... and a dialog's opening text says what its buttons are about ("cookie banner")
    if (role === 'dialog' || role === 'alertdialog' ||
        sameKind(el, beside(el, false)) || sameKind(el, beside(el, true))) {
      if (childCtx === ctx) childCtx = Object.assign({}, ctx);
      childCtx.item = { el: el, text: null, up: ctx.item };
    }
    // Text of a label names its control, and text of a visibility:hidden element is not shown.
    // (nor is the text of an editable field, which its value already shows)
    const quiet = hidden || tag === 'label' || !!(rec && rec.v && el.isContentEditable);
    if (quiet !== !!ctx.quiet) childCtx = Object.assign({}, childCtx, { quiet: quiet });
    const start = data.length;
    if (tag === 'iframe' || tag === 'frame') {
      let doc = null;
      try { doc = el.contentDocument; } catch (e) { doc = null; }
      // fo: a frame owner; fx: its document is out of reach here (another origin), so the caller
      // walks it in the frame's own context and puts its nodes after this one (framewalk.py)
      if (rec) { rec.fo = 1; if (!doc) rec.fx = 1; }
      if (doc && doc.body) { observe(doc); visit(doc.body, childDepth, childCtx, childOwner); }
      return;
    }
    if (el.shadowRoot) visitChildren(el.shadowRoot, childDepth, childCtx, childOwner);
    else visitChildren(el, childDepth, childCtx, childOwner);
    if (!rec || INTERACTIVE.has(role) || rec.v) return;
    const emitted = data.length - start;
    if (emitted === 0 && !rec.n) {
      // An empty structural node costs tokens and says nothing.
      data.pop();
      elements.pop();
    } else if (emitted === 1 && data[start].r === 'text' && !rec.n) {
      // `paragraph "Hello"` instead of a paragraph line and a text line.
      rec.n = data[start].n;
      data.pop();
      elements.pop();
    } else if (emitted === 1 && (!rec.n || rec.n === data[start].n) && !LANDMARK[role] && role !== 'heading') {
      // An unnamed wrapper (list item, cell, group) around one node: keep the node only.
      const only = data[start];
      only.d = rec.d;
      data.splice(start - 1, 1);
      elements.splice(start - 1, 1);
    }
  }

  // The DOM nodes to serialise (their backendNodeId): with opts.ids ({epoch, known}, see
  // node_ids.py), each node gets a number k in this world when first handed over, and a node the
  // caller already has (k < known) is not serialised again; page.k holds every node's k.
  function handOver(page, nodes) {
    const want = opts.ids;
    if (!want) return [JSON.stringify(page), nodes];
    let st = globalThis.__pinchtabNodeIds;
    if (!st || st.epoch !== want.epoch) {
      st = globalThis.__pinchtabNodeIds = { epoch: Math.random().toString(36).slice(2), map: new WeakMap(), next: 0 };
    }
    const known = st.epoch === want.epoch ? want.known : 0;
    const ks = new Array(nodes.length);
    const fresh = [];
    for (let i = 0; i < nodes.length; i++) {
      let k = st.map.get(nodes[i]);
      if (k === undefined) { k = st.next++; st.map.set(nodes[i], k); }
      ks[i] = k;
      if (k >= known) fresh.push(nodes[i]);
    }
    page.k = ks;
    page.epoch = st.epoch;
    page.known = known;
    return [JSON.stringify(page), fresh];
  }

  for (const o of watch.obs) watch.n += o.obs.takeRecords().length;
  const page = { url: location.href, title: document.title, mut: watch.n };
  let root = document.body || document.documentElement;
  if (opts.picked) {
    root = globalThis.__pinchtabPicked;  // the element selectors.py picked just before, in this world
    if (!root || !root.isConnected) return [JSON.stringify(Object.assign(page, { missing: true })), []];
  } else if (opts.selector) {
    root = document.querySelector(opts.selector);
    if (!root) return [JSON.stringify(Object.assign(page, { missing: true })), []];
  }
  if (root) visit(root, 0, { section: '', parent: '' }, null);
  if (capped) page.capped = maxNodes;
  if (maxDepth !== Infinity) {
    // Cut after the walk, not during it: the pruning of empty or one-child wrappers above must
    // see the whole subtree, else an unnamed landmark whose children are below the limit vanishes.
    const keep = data.map((d) => d.d <= maxDepth);
    page.nodes = data.filter((_, i) => keep[i]);
    return handOver(page, elements.filter((_, i) => keep[i]));
  }
  page.nodes = data;
  return handOver(page, elements);
})
