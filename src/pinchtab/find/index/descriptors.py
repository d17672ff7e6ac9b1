"""Element descriptors: one normalised, read-only record per snapshot element.

The snapshot may be sparse or odd: every field except ``ref`` is optional, unknown fields
are ignored, non-string values are stringified, and elements without a ``ref`` are skipped.

``parent`` may be a free-text name ("Login form") or the ``ref`` of another element of the
same snapshot ("e20"); refs are resolved, so a button inside a table row knows the row's
text, a menu item knows its menu, a control in a modal knows it is in a dialog. Cells learn
the header of their column. ``section`` is inherited from the nearest ancestor that has one; ``heading`` (the nearest
preceding heading, when the snapshot provides it) is used as context too.
"""

from __future__ import annotations

import collections
import collections.abc as _abc
from dataclasses import dataclass, field, fields
from typing import Any, Iterable, Mapping

from ...cancellation import CHECK_EVERY, checkpoint

__all__ = ["ElementDescriptor", "build_descriptors", "TEXT_FIELDS"]

# element keys read as additional text, with their role in matching
TEXT_FIELDS: dict[str, str] = {
    "label": "label",
    "aria_label": "label",
    "ariaLabel": "label",
    "aria-label": "label",
    "placeholder": "placeholder",
    "title": "title",
    "alt": "title",
    "tooltip": "title",
    "description": "description",
    "aria_description": "description",
    "ariaDescription": "description",
    "text": "text",
    "textContent": "text",
}
_CELL_ROLES = frozenset({"cell", "gridcell", "rowheader", "columnheader"})
_ROW_PARENTS = frozenset({"table", "grid", "treegrid", "rowgroup"})


def _s(v: Any) -> str:
    if v is None or isinstance(v, bool):
        return ""
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, (list, tuple)):
        return " ".join(_s(x) for x in v if _s(x))
    return ""


def _b(v: Any) -> bool | None:
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.lower() in ("true", "false"):
        return v.lower() == "true"
    return None


@dataclass(frozen=True, slots=True, eq=False)
class ElementDescriptor:
    """What the matcher knows about one element."""

    ref: str
    role: str = ""
    name: str = ""
    value: str = ""
    label: str = ""
    placeholder: str = ""
    title: str = ""
    description: str = ""
    text: str = ""
    href: str = ""
    input_type: str = ""
    parent: str = ""                     # parent name (resolved when the snapshot gave a ref)
    parent_ref: str = ""                 # parent ref when the snapshot gave one
    section: str = ""
    heading: str = ""                    # nearest preceding heading, if the snapshot gives it
    item: str = ""                       # text of the repeated item around it (mail row, comment, card)
    ancestors: tuple[str, ...] = ()      # names of further ancestors, nearest first
    ancestor_roles: tuple[str, ...] = () # roles of ancestors (parent first)
    column: str = ""                     # column header, for table cells
    interactive: bool | None = None
    disabled: bool = False
    in_dialog: bool = False
    in_modal: bool = False               # inside (or is) a modal dialog
    index: int = 0                       # document order
    positional: Mapping[str, Any] | None = None
    states: Mapping[str, Any] = field(default_factory=dict)

    @property
    def primary(self) -> str:
        """The element's own label: name, else aria-label/placeholder/title/description/value."""
        return self.name or self.label or self.placeholder or self.title or self.description or self.text or self.value

    @property
    def composite(self) -> str:
        """Human-readable one-line summary, also what the embedding side sees."""
        parts = [f"{self.role or 'element'}: {self.primary}"]
        if self.name and self.label and self.label != self.name:
            parts.append(f"label: {self.label}")
        if self.placeholder and self.placeholder != self.primary:
            parts.append(f"placeholder: {self.placeholder}")
        if self.description and self.description != self.primary:
            parts.append(f"description: {self.description}")
        if self.value:
            parts.append(f"value: {self.value}")
        if self.column:
            parts.append(f"column: {self.column}")
        if self.parent:
            parts.append(f"parent: {self.parent}")
        if self.section and self.section != self.parent:
            parts.append(f"section: {self.section}")
        if self.heading and self.heading not in (self.parent, self.section):
            parts.append(f"heading: {self.heading}")
        if self.item:
            parts.append(f"item: {self.item}")
        return " | ".join(parts)

    @property
    def geometry(self) -> tuple[float, float, float, float] | None:
        p = self.positional
        if not p:
            return None
        try:
            x, y = float(p["x"]), float(p["y"])
        except (KeyError, TypeError, ValueError):
            return None
        try:
            w = float(p.get("width", p.get("w", 0)) or 0)
            h = float(p.get("height", p.get("h", 0)) or 0)
        except (TypeError, ValueError):
            w = h = 0.0
        return (x, y, w, h)

    def to_dict(self) -> dict[str, Any]:
        d = {"ref": self.ref, "role": self.role, "name": self.name}
        for k in ("value", "label", "placeholder", "description", "parent", "section", "heading", "item", "column"):
            v = getattr(self, k)
            if v:
                d[k] = v
        return d


def _fast_constructor():
    """``ElementDescriptor(...)`` (all fields, positionally) without the frozen dataclass's
    per-field ``object.__setattr__``: the fields are stored into a plain class of the same
    slots, which then becomes an ``ElementDescriptor`` (same layout, so ``__class__`` may be
    reassigned; the result is frozen like any other). About 5x faster than the dataclass's
    ``__init__``; the index builds one per element."""
    names = [f.name for f in fields(ElementDescriptor)]
    if tuple(names) != tuple(ElementDescriptor.__slots__):
        raise TypeError("ElementDescriptor's slots are not its fields")  # the layouts below would differ
    builder = type("_DescriptorBuilder", (), {"__slots__": tuple(names)})
    ns: dict[str, Any] = {"new": object.__new__, "builder": builder, "cls": ElementDescriptor}
    body = "".join(f"    o.{n} = {n}\n" for n in names)
    src = f"def make({', '.join(names)}):\n    o = new(builder)\n{body}    o.__class__ = cls\n    return o\n"
    exec(src, ns)  # noqa: S102 - generated from the dataclass's own field names
    return ns["make"]


_make = _fast_constructor()
_TEXT_KEYS = frozenset(TEXT_FIELDS)
_STATE_KEYS = ("expanded", "checked", "selected", "pressed", "modal", "level", "focused", "icon")
_STATE_SET = frozenset(_STATE_KEYS)
_DIALOG_ROLES = ("dialog", "alertdialog")


# keys most elements lack: one test skips reading them (``_extras``)
_EXTRA_KEYS = _TEXT_KEYS | _STATE_SET | {"positional", "disabled", "aria_disabled", "href", "url", "type", "inputType",
                                         "value", "item"}
_NO_EXTRAS = ("", "", "", "", "", None, None, False, "", "", "", "")


def _extras(e: Mapping) -> tuple:
    """(label, placeholder, title, description, text, positional, states, disabled, href,
    input_type, value, item) of an element that has some of ``_EXTRA_KEYS``."""
    texts: dict[str, str] = {}
    if not _TEXT_KEYS.isdisjoint(e.keys()):
        for key, slot in TEXT_FIELDS.items():
            if key in e:
                v = _s(e.get(key))
                if v and slot not in texts:
                    texts[slot] = v
    pos = e.get("positional")
    if pos is not None and type(pos) is not dict and not isinstance(pos, _abc.Mapping):
        pos = None
    if _STATE_SET.isdisjoint(e.keys()):
        states = {}
    else:
        states = {k: e[k] for k in _STATE_KEYS if k in e}
    v = e.get("disabled")
    disabled = v is True or (v is not None and v is not False and bool(_b(v)))
    if not disabled:
        v = e.get("aria_disabled")
        disabled = v is True or (v is not None and v is not False and bool(_b(v)))
    v = e.get("href")
    href = "" if v is None else _s(v)
    if not href:
        v = e.get("url")
        href = "" if v is None else _s(v)
    v = e.get("type")
    input_type = "" if v is None else _s(v)
    if not input_type:
        v = e.get("inputType")
        input_type = "" if v is None else _s(v)
    v = e.get("value")
    value = "" if v is None else _s(v)
    v = e.get("item")
    item = "" if v is None else _s(v)
    return (texts.get("label", ""), texts.get("placeholder", ""), texts.get("title", ""), texts.get("description", ""),
            texts.get("text", ""), pos, states, disabled, href, input_type, value, item)


_FIELD_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "textarea", "input"})
_SHORTCUT_ROLES = frozenset({"link", "button"})
_BESIDE_WORDS = 1   # "Today", "Now", "Clear", "Go": the shortcuts a form puts after a field
_BESIDE_REACH = 6   # rows back from a shortcut to its field


def _depth(e: Mapping) -> int | None:
    d = e.get("depth")
    return d if type(d) is int else None


def _beside_fields(raw: list[Mapping], roles: list[str]) -> dict[int, str]:
    """Row -> the field a shortcut sits beside: a link or button of one word or none ("Today",
    "Now", a calendar icon) right after a text field, at its depth with nothing between but
    other such shortcuts and separators ("|"), is that field's shortcut; the field's label, and
    the caption just before it ("Time:"), say which one ("the now link for the last login
    time"). Needs the snapshot's depths."""
    out: dict[int, str] = {}
    for i, r in enumerate(roles):
        if r not in _SHORTCUT_ROLES:
            continue
        e = raw[i]
        d = _depth(e)
        if d is None or len(_s(e.get("name")).split()) > _BESIDE_WORDS or e.get("column"):
            continue  # (a control in a table's column is that column's: "filter the units column")
        parent = e.get("parent")
        for j in range(i - 1, max(-1, i - 1 - _BESIDE_REACH), -1):
            f, dj = raw[j], _depth(raw[j])
            if dj is not None and dj > d:
                continue  # inside a sibling
            if dj != d or f.get("parent") != parent:
                break
            if roles[j] in _FIELD_ROLES:
                words = [_s(f.get("label")) or _s(f.get("name")) or _s(f.get("placeholder"))]
                c = raw[j - 1] if j else None
                if c is not None and roles[j - 1] in ("text", "statictext") and _depth(c) == d \
                        and len(_s(c.get("name")).split()) <= _BESIDE_WORDS:
                    words.append(_s(c.get("name")).rstrip(":"))
                out[i] = " ".join(w for w in words if w)
                break
            if roles[j] in _SHORTCUT_ROLES and len(_s(f.get("name")).split()) <= _BESIDE_WORDS:
                continue
            if roles[j] in ("text", "statictext") and not any(ch.isalnum() for ch in _s(f.get("name"))):
                continue
            break
    # only where it tells repeated shortcuts apart (a "Now" beside each time field): a single
    # "Go" or "Search" after a field needs no field to be found, and may well not be its
    seen = collections.Counter((roles[i], _s(raw[i].get("name"))) for i in out)
    return {i: t for i, t in out.items() if seen[(roles[i], _s(raw[i].get("name")))] > 1}


def build_descriptors(elements: Iterable[Any]) -> list[ElementDescriptor]:
    """Snapshot element dicts -> descriptors (document order kept, ref-less entries skipped)."""
    raw: list[Mapping] = []
    refs: list[str] = []
    by_ref: dict[str, Mapping] = {}
    for n, el in enumerate(elements or ()):
        if not n & CHECK_EVERY:  # a request that gave up stops the build here, between elements
            checkpoint()
        if type(el) is not dict and not isinstance(el, _abc.Mapping):
            continue
        v = el.get("ref")
        ref = v.strip() if type(v) is str else _s(v)
        if not ref or ref in by_ref:
            continue
        by_ref[ref] = el
        raw.append(el)
        refs.append(ref)

    # per element: parent ref (when the parent is another element), lowercase role
    prefs: list[str] = []
    frees: list[str] = []        # free-text parent (a name, not a ref)
    raw_roles: list[str] = []    # role as given (stripped)
    roles: list[str] = []
    role_by_ref: dict[str, str] = {}
    children: dict[str, list[str]] = {}  # children in document order, for table columns
    for n, (e, ref) in enumerate(zip(raw, refs)):
        if not n & CHECK_EVERY:
            checkpoint()
        p = e.get("parent")
        if type(p) is str or isinstance(p, str):
            pr = p if p in by_ref and p != ref else ""
            frees.append(p.strip() if p and p not in by_ref else "")
        else:
            pr = ""
            frees.append("")
        prefs.append(pr)
        v = e.get("role")
        rr = v.strip() if type(v) is str else _s(v)
        raw_roles.append(rr)
        r = rr.lower()
        roles.append(r)
        role_by_ref[ref] = r
        if pr:
            lst = children.get(pr)
            if lst is None:
                children[pr] = [ref]
            else:
                lst.append(ref)
    pref_of = dict(zip(refs, prefs))

    def role_of(ref: str) -> str:
        return role_by_ref.get(ref, "")

    # header cells of each table: table ref -> [column names]
    headers: dict[str, list[str]] = {}
    for tref, kids in children.items():
        if role_of(tref) not in _ROW_PARENTS:
            continue
        rows = [k for k in kids if role_of(k) == "row"]
        for grp in [k for k in kids if role_of(k) == "rowgroup"]:
            rows += [k for k in children.get(grp, []) if role_of(k) == "row"]
        for r in rows:
            cells = [c for c in children.get(r, []) if role_of(c) in _CELL_ROLES]
            if cells and all(role_of(c) == "columnheader" for c in cells):
                headers[tref if role_of(tref) != "rowgroup" else (pref_of[tref] or tref)] = [
                    _s(by_ref[c].get("name")) for c in cells
                ]
                break

    # dialog content: with depths (the live snapshot), the dialog's subtree; otherwise the
    # elements whose section/parent is the dialog's name (how the snapshot labels its content)
    dialog_of: dict[int, bool] = {}   # row -> inside a modal dialog?
    dialog_names: dict[str, bool] = {}
    for i, r in enumerate(roles):
        if r not in _DIALOG_ROLES:
            continue
        e = raw[i]
        modal = bool(_b(e.get("modal")))
        dialog_of[i] = modal
        d0 = e.get("depth")
        if isinstance(d0, int) and not isinstance(d0, bool):
            j = i + 1
            while j < len(raw):
                dj = raw[j].get("depth")
                if not isinstance(dj, int) or dj <= d0:
                    break
                dialog_of[j] = dialog_of.get(j, False) or modal
                j += 1
        else:
            nm = _s(e.get("name"))
            if nm:
                dialog_names[nm] = dialog_names.get(nm, False) or modal
    if dialog_names:
        for i, e in enumerate(raw):
            for key in ("section", "parent"):
                v = e.get(key)
                if isinstance(v, str) and v in dialog_names and v not in by_ref:
                    dialog_of[i] = dialog_of.get(i, False) or dialog_names[v]

    beside = _beside_fields(raw, roles)

    # what an element contributes to its descendants' context (memoised: siblings share parents)
    node_info: dict[str, tuple] = {}

    def info(ref: str) -> tuple:
        t = node_info.get(ref)
        if t is None:
            cur = by_ref[ref]
            r = role_by_ref[ref]
            nm = _s(cur.get("name")) or _s(cur.get("label")) or _s(cur.get("aria_label"))
            fp = cur.get("parent")
            fp = fp.strip() if isinstance(fp, str) and fp and fp not in by_ref else None
            t = (pref_of[ref], r, nm, cur, r in _DIALOG_ROLES or bool(_b(cur.get("modal"))), fp)
            node_info[ref] = t
        return t

    # ancestors of a parent ref (at most 8), for elements with / without a free-text parent
    chains: dict[tuple[str, bool], tuple] = {}

    def chain(pr: str, free: bool) -> tuple:
        anc_names: list[str] = []
        anc_roles: list[str] = []
        section = ""
        in_dialog = False
        depth = 0
        while depth < 8 and pr:
            nxt, r, nm, cur, dlg, fp = info(pr)
            anc_roles.append(r)
            anc_names.append(nm)
            if not section:
                section = _s(cur.get("section"))
            if dlg:
                in_dialog = True
            if not free and fp is not None:
                # an ancestor's free-text parent is also context
                anc_names.append(fp)
            pr = nxt
            depth += 1
        further = tuple(a for a in anc_names[1:] if a)
        return (anc_names[0] if anc_names else "", further, tuple(anc_roles), section, in_dialog)

    cells_of: dict[str, dict[str, int]] = {}
    out: list[ElementDescriptor] = []
    for idx, e in enumerate(raw):
        if not idx & CHECK_EVERY:
            checkpoint()
        ref = refs[idx]
        role = raw_roles[idx]
        v = e.get("name")
        name = v.strip() if type(v) is str else _s(v)
        v = e.get("section")
        section = v.strip() if type(v) is str else _s(v)
        free_parent = frees[idx]
        pref = prefs[idx]
        if pref:
            key = (pref, bool(free_parent))
            c = chains.get(key)
            if c is None:
                c = chains[key] = chain(pref, bool(free_parent))
            parent = free_parent or c[0]
            further, anc_roles, in_dialog = c[1], c[2], c[4]
            if not section:
                section = c[3]
        else:
            parent, further, anc_roles, in_dialog = free_parent, (), (), False
        # column header for cells
        column = ""
        lrole = roles[idx]
        if (lrole == "cell" or lrole == "gridcell") and pref and role_of(pref) == "row":
            tref = pref_of[pref]
            if tref and role_of(tref) == "rowgroup":
                tref = pref_of[tref] or tref
            cols = headers.get(tref, [])
            pos = cells_of.get(pref)
            if pos is None:
                pos = {}
                for k, cref in enumerate(c2 for c2 in children.get(pref, []) if role_of(c2) in _CELL_ROLES):
                    pos.setdefault(cref, k)
                cells_of[pref] = pos
            k = pos.get(ref)
            if k is not None and k < len(cols):
                column = cols[k]
        if not column:
            # the live snapshot names it (its tree is flat: parents are texts, not refs)
            v = e.get("column")
            if v:
                column = _s(v)
        if _EXTRA_KEYS.isdisjoint(e.keys()):
            label, placeholder, title, description, text, pos, states, disabled, href, input_type, value, item = \
                _NO_EXTRAS
            states = {}  # each descriptor its own
        else:
            label, placeholder, title, description, text, pos, states, disabled, href, input_type, value, item = \
                _extras(e)
        v = e.get("interactive")
        interactive = v if (v is None or v is True or v is False) else _b(v)
        if lrole in _DIALOG_ROLES and _b(e.get("modal")):
            in_dialog = True
        if idx in dialog_of:
            in_dialog = True
        v = e.get("heading")
        heading = "" if v is None else _s(v)
        if not item and idx in beside:
            item = beside[idx]
        out.append(
            _make(
                ref, role, name, value, label, placeholder, title, description, text if text != name else "", href,
                input_type, parent, pref, section, heading, item, further, anc_roles, column, interactive,
                disabled, in_dialog, dialog_of.get(idx, False), idx, pos, states,
            )
        )
    return out
