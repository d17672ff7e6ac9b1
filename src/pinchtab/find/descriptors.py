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

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

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


def build_descriptors(elements: Iterable[Any]) -> list[ElementDescriptor]:
    """Snapshot element dicts -> descriptors (document order kept, ref-less entries skipped)."""
    raw: list[dict] = []
    seen: set[str] = set()
    for el in elements or ():
        if not isinstance(el, Mapping):
            continue
        ref = _s(el.get("ref"))
        if not ref or ref in seen:
            continue
        seen.add(ref)
        raw.append(dict(el))
    by_ref = {_s(e.get("ref")): e for e in raw}

    def parent_ref(e: Mapping) -> str:
        p = e.get("parent")
        if isinstance(p, str) and p in by_ref and p != _s(e.get("ref")):
            return p
        return ""

    # children in document order, for table columns
    children: dict[str, list[str]] = {}
    for e in raw:
        pr = parent_ref(e)
        if pr:
            children.setdefault(pr, []).append(_s(e.get("ref")))

    def role_of(ref: str) -> str:
        return _s(by_ref[ref].get("role")).lower() if ref in by_ref else ""

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
                headers[tref if role_of(tref) != "rowgroup" else (parent_ref(by_ref[tref]) or tref)] = [
                    _s(by_ref[c].get("name")) for c in cells
                ]
                break

    # dialog content: with depths (the live snapshot), the dialog's subtree; otherwise the
    # elements whose section/parent is the dialog's name (how the snapshot labels its content)
    dialog_of: dict[int, bool] = {}   # row -> inside a modal dialog?
    dialog_names: dict[str, bool] = {}
    for i, e in enumerate(raw):
        if _s(e.get("role")).lower() not in ("dialog", "alertdialog"):
            continue
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

    out: list[ElementDescriptor] = []
    for idx, e in enumerate(raw):
        ref = _s(e.get("ref"))
        role = _s(e.get("role"))
        name = _s(e.get("name"))
        # ancestors via ref parents
        anc_names: list[str] = []
        anc_roles: list[str] = []
        section = _s(e.get("section"))
        in_dialog = False
        cur = e
        free_parent = ""
        p = e.get("parent")
        if isinstance(p, str) and p and p not in by_ref:
            free_parent = p.strip()
        depth = 0
        while depth < 8:
            pr = parent_ref(cur)
            if not pr:
                break
            cur = by_ref[pr]
            r = _s(cur.get("role")).lower()
            anc_roles.append(r)
            nm = _s(cur.get("name")) or _s(cur.get("label")) or _s(cur.get("aria_label"))
            anc_names.append(nm)
            if not section:
                section = _s(cur.get("section"))
            if r in ("dialog", "alertdialog") or _b(cur.get("modal")):
                in_dialog = True
            if not free_parent:
                fp = cur.get("parent")
                if isinstance(fp, str) and fp and fp not in by_ref and depth >= 0:
                    # an ancestor's free-text parent is also context
                    anc_names.append(fp.strip())
            depth += 1
        pref = parent_ref(e)
        parent = free_parent or (anc_names[0] if pref and anc_names else "")
        further = tuple(a for a in (anc_names[1:] if pref else anc_names) if a)
        # column header for cells
        column = ""
        if role.lower() in ("cell", "gridcell") and pref and role_of(pref) == "row":
            row = by_ref[pref]
            tref = parent_ref(row)
            if tref and role_of(tref) == "rowgroup":
                tref = parent_ref(by_ref[tref]) or tref
            cols = headers.get(tref, [])
            cells = [c for c in children.get(pref, []) if role_of(c) in _CELL_ROLES]
            if ref in cells:
                k = cells.index(ref)
                if k < len(cols):
                    column = cols[k]
        texts: dict[str, str] = {}
        for key, slot in TEXT_FIELDS.items():
            v = _s(e.get(key))
            if v and slot not in texts:
                texts[slot] = v
        pos = e.get("positional")
        if not isinstance(pos, Mapping):
            pos = None
        states = {k: e[k] for k in ("expanded", "checked", "selected", "pressed", "modal", "level", "focused") if k in e}
        interactive = _b(e.get("interactive"))
        disabled = bool(_b(e.get("disabled"))) or bool(_b(e.get("aria_disabled")))
        if _b(e.get("modal")) and role.lower() in ("dialog", "alertdialog"):
            in_dialog = True
        if idx in dialog_of:
            in_dialog = True
        href = _s(e.get("href")) or _s(e.get("url"))
        out.append(
            ElementDescriptor(
                ref=ref,
                role=role,
                name=name,
                value=_s(e.get("value")),
                label=texts.get("label", ""),
                placeholder=texts.get("placeholder", ""),
                title=texts.get("title", ""),
                description=texts.get("description", ""),
                text=texts.get("text", "") if texts.get("text", "") != name else "",
                href=href,
                input_type=_s(e.get("type")) or _s(e.get("inputType")),
                parent=parent,
                parent_ref=pref,
                section=section,
                heading=_s(e.get("heading")),
                item=_s(e.get("item")),
                ancestors=further,
                ancestor_roles=tuple(anc_roles),
                column=column,
                interactive=interactive,
                disabled=disabled,
                in_dialog=in_dialog,
                in_modal=dialog_of.get(idx, False),
                index=idx,
                positional=pos,
                states=states,
            )
        )
    return out
