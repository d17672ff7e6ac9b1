// The snapshot walker's naming helpers: what names or describes a control for a person when
// Chromium's name does not (an icon's glyph, a caption the page did not tie to its field, what a
// collapsed section holds, a drawn tab, the list a dual-list arrow moves to, a cell's column).
// Not a script of its own: snapshot.py puts this text inside the walker's function (snapshot.js,
// at its @include line), so it shares the walker's scope (clip, textOf, NAME_MAX...).
  // The icon a control draws: an icon font's ligature (Material "edit"), an icon class
  // ("fa-trash", "bi-pencil"), a data-icon attribute (Font Awesome's svg) or an <use> sprite.
  const ICON_CLASS = /^(?:fa[srlbdt]?|bi|glyphicon|mdi|icon|ti|ion|ri|lucide|la|octicon|codicon|feather|ph|tabler|bx|fi|gg|ki|si)-([a-z][a-z0-9-]*)$/;
  const ICON_MODIFIER = /^(?:fw|lg|xs|sm|xl|2xs|[0-9]+x|w-[0-9]+|solid|regular|light|thin|duotone|brands|spin|pulse|inverse|border|flip.*|rotate.*|stack.*|pull-.*|inline|sharp|fill|outline|outlined|filled|rounded|size-.*|lucide)$/;
  const LIGATURE = /^[a-z][a-z0-9_]{1,30}$/;
  function glyphOf(el) {
    const parts = [el, ...el.querySelectorAll('i, span, svg, use, em')].slice(0, 6);
    for (const e of parts) {
      const di = e.getAttribute && e.getAttribute('data-icon');
      if (di && LIGATURE.test(di.replace(/-/g, '_'))) return di.replace(/[-_]/g, ' ');
      const cls = typeof e.className === 'string' ? e.className : (e.getAttribute && e.getAttribute('class')) || '';
      if (/material-(icons|symbols)/.test(cls)) {
        const t = (e.textContent || '').trim();
        if (LIGATURE.test(t)) return t.replace(/_/g, ' ');
      }
      for (const c of cls.split(/\s+/)) {
        const m = ICON_CLASS.exec(c);
        if (m && !ICON_MODIFIER.test(m[1])) return m[1].replace(/-/g, ' ');
      }
      if (e.localName === 'use') {
        const h = (e.getAttribute('href') || e.getAttribute('xlink:href') || '').split('#')[1] || '';
        const w = h.replace(/^(icon|i|svg|ico)[-_]/, '');
        if (LIGATURE.test(w.replace(/-/g, '_'))) return w.replace(/[-_]/g, ' ');
      }
    }
    return '';
  }

  // What a collapsed toggle holds: its <details>' content, or the region it names in
  // aria-controls; the words of its labels, captions and controls' names (not shown, so not in
  // the snapshot), up to NAME_MAX characters.
  function heldText(el, tag) {
    let region = null;
    if (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details') region = el.parentElement;
    else {
      const ids = (el.getAttribute('aria-controls') || '').split(/\s+/).filter(Boolean);
      const root = el.getRootNode();
      if (ids.length && root.getElementById) region = root.getElementById(ids[0]);
    }
    // (a region around the toggle itself, other than its <details>, is not what it opens)
    if (!region || (region.contains(el) && region !== el.parentElement)) return '';
    const words = [];
    let size = 0;
    const walker = document.createTreeWalker(region, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n && size < NAME_MAX; n = walker.nextNode()) {
      if (n === el || (n.nodeType === 1 && el.contains(n))) continue;
      let t = '';
      if (n.nodeType === 3) {
        if (n.parentElement && n.parentElement.closest('script, style, summary')) continue;
        t = n.data;
      } else {
        t = n.getAttribute('aria-label') || n.getAttribute('placeholder') || '';
      }
      t = t.replace(/\s+/g, ' ').trim();
      if (t && LETTER.test(t)) { words.push(t); size += t.length + 1; }
    }
    return clip(words.join(' '));
  }

  const LABELLED_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'slider', 'spinbutton',
    'checkbox', 'radio', 'switch']);
  const LABEL_MAX = 60;
  const LETTER = /\p{L}/u;
  const CELLISH = new Set(['td', 'th', 'tr', 'li', 'table', 'tbody', 'ul', 'ol', 'form', 'fieldset', 'body']);
  const HAS_CONTROL = 'input, select, textarea, button, [role], a[href]';
  function labelText(e) {
    const t = (e && (e.innerText || e.textContent) || '').replace(/\s+/g, ' ').trim().replace(/:$/, '');
    return t && t.length <= LABEL_MAX && LETTER.test(t) ? t : '';
  }
  function captionBeside(e) {
    // a neighbour with words of its own and no control in it: a caption; ''+stop for anything else
    if (!e) return ['', false];
    // a date picker's hidden input holds the value its <label> is for; the caption goes past it
    if (e.localName === 'input' && e.type === 'hidden') return ['', false];
    if (e.matches(HAS_CONTROL) || e.querySelector(HAS_CONTROL)) return ['', true];
    const t = labelText(e);
    if (t) return [t, true];
    return ['', LETTER.test(e.textContent || '')];
  }
  // id -> its first <label for>, per document or shadow root, read once per walk (a form of a
  // thousand fields must not search the document a thousand times)
  const labelMaps = new Map();
  function labelsFor(root) {
    let map = labelMaps.get(root);
    if (!map) {
      map = new Map();
      if (root.querySelectorAll) {
        for (const l of root.querySelectorAll('label[for]')) if (!map.has(l.htmlFor)) map.set(l.htmlFor, l);
      }
      labelMaps.set(root, map);
    }
    return map;
  }
  function visualLabel(el, name) {
    let t = '';
    if (el.id) t = labelText(labelsFor(el.getRootNode()).get(el.id));
    if (!t && !name) {
      const wrap = el.closest('label');
      if (wrap) t = labelText(wrap);
    }
    if (!t && !name) {
      // the caption just before the control (or, for a checkbox, just after it), climbing out of
      // wrappers without words; a table cell, list item or form is as far as it goes, and a
      // neighbour with other words or a control ends the search
      let cur = el;
      const box = el.type === 'checkbox' || el.type === 'radio';
      for (let up = 0; up < 5 && cur && !CELLISH.has(cur.localName); up++) {
        let stop = false;
        for (let prev = cur.previousElementSibling; prev && !t && !stop; prev = prev.previousElementSibling) {
          [t, stop] = captionBeside(prev);
        }
        if (!t && box && up < 2) [t] = captionBeside(cur.nextElementSibling);
        if (t || stop) break;
        cur = cur.parentElement || (cur.getRootNode() && cur.getRootNode().host) || null;
      }
    }
    if (!t && !name && el.getAttribute) {
      // last resort for a bare form field: its form name, as a person would guess it from the
      // page around it ("_filter_column" -> "filter column")
      const nm = (el.getAttribute('name') || '').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.[\]]+/g, ' ').trim();
      if (nm.length > 2 && LETTER.test(nm)) t = nm.toLowerCase();
    }
    if (!t || t === name || (name && (name.includes(t) || t.includes(name)))) return '';
    return clip(t);
  }

  // An icon control: named (aria-label, title, alt) but showing no word of its own - a glyph, an
  // icon font, an emoji, an <svg> (whose <title> is not shown). find reads "trash can icon" so.
  const ICON_ROLES = new Set(['button', 'link', 'menuitem', 'tab', 'togglebutton']);
  const WORDISH = /[\p{L}\p{N}]/u;
  function showsWords(el) {
    if (!WORDISH.test(el.textContent)) return false;
    if (!el.querySelector('svg, style, script')) return true;
    const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let t = w.nextNode(); t; t = w.nextNode()) {
      if (WORDISH.test(t.data) && !(t.parentElement && t.parentElement.closest('svg, style, script'))) return true;
    }
    return false;
  }

  // A button whose words are pushed out of its box (text-indent: -3000px) or shrunk to nothing
  // and which shows a background image instead (Django's dual-list arrows): an icon too.
  function wordsPushedOut(el) {
    const st = el.ownerDocument.defaultView.getComputedStyle(el);
    return Math.abs(parseFloat(st.textIndent) || 0) >= 999 || parseFloat(st.fontSize) === 0;
  }

  // A tab drawn as a plain <div>/<span> (Dash's "tab", Panel's "bk-tab"): no role, often no
  // tabindex, only a click listener the walker cannot see. It counts as a tab when its class says
  // tab, it stands in a run of siblings of its kind, it shows a few words and holds no control,
  // and the page shows it as clickable (focusable, onclick or a pointer cursor starting on it).
  // Returns its text ('' when it is not one).
  const DRAWN_TAB = /(?:^|\s)(?:[\w-]*[-_])?tab(?:\s|$)/i;
  const DRAWN_TAB_ON = /(?:^|[\s_-])(?:active|selected|current)(?:\s|$)/i;
  function drawnTab(el, focusable) {
    const cls = el.getAttribute('class');
    if (!cls || !DRAWN_TAB.test(cls)) return '';
    // (the selected one's class differs from its siblings': "tab tab--selected")
    const kin = (s) => !!s && s.localName === el.localName && DRAWN_TAB.test(s.getAttribute('class') || '');
    if (!(kin(el.previousElementSibling) || kin(el.nextElementSibling))) return '';
    if (el.querySelector(HAS_CONTROL)) return '';
    const text = textOf(el, 41);
    if (!text || text.length > 40 || !LETTER.test(text)) return '';
    if (!focusable) {
      const view = el.ownerDocument.defaultView;
      const up = el.parentElement;
      if (view.getComputedStyle(el).cursor !== 'pointer' ||
          (up && view.getComputedStyle(up).cursor === 'pointer')) return '';
    }
    return text;
  }

  // The header of a table cell's column (find's "bob's email": the cell in bob's row under
  // "Email"), for a cell and for a control inside a cell (a filter field under the header): the
  // text of the header row's cell at the same index, a header row being the <thead>'s first or
  // a first row of <th> only. Read once per table.
  const headerTexts = new WeakMap();
  function columnOf(el, role) {
    const cell = role === 'cell' || role === 'gridcell' ? el : el.closest('td, th');
    if (!cell || (cell.localName !== 'td' && cell.localName !== 'th')) return '';
    const row = cell.parentElement;
    const table = row && row.closest('table');
    if (!table) return '';
    let head = headerTexts.get(table);
    if (head === undefined) {
      let hr = table.tHead && table.tHead.rows[0];
      if (!hr && table.rows[0] && table.rows[0].cells.length &&
          Array.from(table.rows[0].cells).every((c) => c.localName === 'th')) hr = table.rows[0];
      head = hr ? { row: hr, texts: Array.from(hr.cells, (c) => labelText(c)) } : null;
      headerTexts.set(table, head);
    }
    return (head && head.row !== row && head.texts[cell.cellIndex]) || '';
  }

  // A button between two list boxes (a dual list: "Choose" and "Remove" arrows) moves options
  // into one of them; its description names that list ("to Chosen groups"), read from the
  // button's own words: add/choose/include go to the list after it, remove/exclude to the one
  // before. The list's name is its <label>'s (its full name also holds its help text).
  const LIST_BOX = 'select[multiple], select[size]:not([size="1"]), [role=listbox]';
  const MOVES_FORWARD = /\b(add|choose|select|include|move right)\b|[\u2192\u00bb>]/i;
  const MOVES_BACK = /\b(remove|deselect|exclude|move left)\b|[\u2190\u00ab<]/i;
  function sharesWord(a, b) {
    const words = new Set(b.toLowerCase().match(/\p{L}{3,}/gu) || []);
    return (a.toLowerCase().match(/\p{L}{3,}/gu) || []).some((w) => words.has(w));
  }
  function movesTo(el, name) {
    const forward = MOVES_FORWARD.test(name);
    if (forward === MOVES_BACK.test(name)) return '';
    let box = el.parentElement;
    for (let up = 0; box && up < 4; up++, box = box.parentElement) {
      const lists = box.querySelectorAll(LIST_BOX);
      if (lists.length < 2) continue;
      // two lists: the pair, wherever the button sits ("Remove all" under the second list);
      // more: the lists on either side of it
      let before = lists[0];
      let after = lists[1];
      if (lists.length > 2) {
        before = after = null;
        for (const l of lists) {
          if (l.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) before = l;
          else if (!after) after = l;
        }
        if (!before || !after) return '';
      }
      const target = forward ? after : before;
      const t = (target.id && labelText(labelsFor(target.getRootNode()).get(target.id))) ||
        clip(target.getAttribute('aria-label') || '');
      // the button names what the lists hold ("Choose selected groups" beside "Chosen groups"),
      // or shows only a glyph; a form's "Save and add another" near them moves nothing
      if (!t || (LETTER.test(name) && !sharesWord(name, t))) return '';
      return 'moves to ' + t;
    }
    return '';
  }
