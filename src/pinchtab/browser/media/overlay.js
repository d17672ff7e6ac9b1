// PinchTab's /annotate overlay: one box per interactive element, labelled with its ref, left on
// the live page (for a person at a headed browser). Clicking a label copies a reference block
// (page, ref, role and name, CSS selector, XPath) to the clipboard and to window.__ptLastCopied.
// Runs in the page's own world so the page (and /evaluate) sees what a click copied.
(function (items, rootId) {
  var prev = document.getElementById(rootId);
  if (prev) prev.remove();
  if (!items.length) return 0;
  var sx = window.scrollX, sy = window.scrollY;
  window.__ptLastCopied = null;

  function cssPath(el) {
    var parts = [];
    while (el && el.nodeType === 1 && el !== document.documentElement) {
      if (el.id) { parts.unshift('#' + CSS.escape(el.id)); break; }
      var sel = el.nodeName.toLowerCase(), p = el.parentElement;
      if (p) {
        var same = Array.prototype.filter.call(p.children, function (c) { return c.nodeName === el.nodeName; });
        if (same.length > 1) sel += ':nth-of-type(' + (same.indexOf(el) + 1) + ')';
      }
      parts.unshift(sel);
      el = el.parentElement;
    }
    return parts.join(' > ');
  }
  function xPath(el) {
    var parts = [];
    for (; el && el.nodeType === 1; el = el.parentElement) {
      var i = 1;
      for (var s = el.previousElementSibling; s; s = s.previousElementSibling) if (s.nodeName === el.nodeName) i++;
      parts.unshift(el.nodeName.toLowerCase() + '[' + i + ']');
    }
    return '/' + parts.join('/');
  }
  // The element under the box's centre (boxes let the pointer through), then the ancestor whose
  // size is closest to the box's: the point may land on a child.
  function elementOf(it) {
    var el = document.elementFromPoint(it.box.x + sx - window.scrollX + it.box.w / 2,
                                       it.box.y + sy - window.scrollY + it.box.h / 2);
    var best = el, diff = Infinity;
    for (var k = 0, n = el; k < 6 && n; k++, n = n.parentElement) {
      var r = n.getBoundingClientRect(), d = Math.abs(r.width - it.box.w) + Math.abs(r.height - it.box.h);
      if (d < diff) { diff = d; best = n; }
    }
    return best;
  }
  function copy(text) {
    window.__ptLastCopied = text;
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(function () {});
  }
  function reference(it) {
    var el = elementOf(it), head = it.ref;
    if (it.role) head += ' \u2014 ' + it.role;
    if (it.name) head += ' "' + it.name + '"';
    return 'Page: ' + document.title + ' (' + location.href + ')\n' + 'Element: ' + head + '\n' +
      'CSS: ' + (el ? cssPath(el) : '(unresolved)') + '\n' + 'XPath: ' + (el ? xPath(el) : '');
  }

  var root = document.createElement('div');
  root.id = rootId;
  root.style.cssText = 'position:absolute;top:0;left:0;width:0;height:0;pointer-events:none;z-index:2147483646';
  items.forEach(function (it) {
    var box = document.createElement('div');
    box.style.cssText = 'position:absolute;box-sizing:border-box;border:2px solid #e8178a;pointer-events:none;' +
      'left:' + (it.box.x + sx) + 'px;top:' + (it.box.y + sy) + 'px;width:' + it.box.w + 'px;height:' + it.box.h + 'px';
    var label = document.createElement('div');
    label.textContent = it.ref;
    label.title = 'Copy a reference to ' + it.ref;
    label.style.cssText = 'position:absolute;background:#e8178a;color:#fff;font:bold 11px/14px sans-serif;' +
      'padding:0 3px;border-radius:2px;cursor:pointer;pointer-events:auto;white-space:nowrap;' +
      'left:' + (it.box.x + sx) + 'px;top:' + Math.max(0, it.box.y + sy - 14) + 'px';
    label.addEventListener('click', function (e) { e.preventDefault(); e.stopPropagation(); copy(reference(it)); });
    root.appendChild(box);
    root.appendChild(label);
  });
  (document.body || document.documentElement).appendChild(root);
  return items.length;
})
