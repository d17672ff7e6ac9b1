"""Static vocabulary for the find matcher: stop words, generic verbs, role words and
query-structure words (synonym groups and antonyms are in :mod:`.synonyms`).

Everything here is general web-UI vocabulary (what buttons, links, fields and icons are
usually called, and how people ask for them). Nothing is keyed to a particular page.

Surface forms are written in plain English; :mod:`pinchtab.find.text.lexical` normalises them
with the same tokenizer/stemmer that it applies to element text and queries, so
``"Log in"``, ``"log-in"`` and ``"LogIn"`` all meet.
"""

from __future__ import annotations

# Words that carry no meaning for matching. Prepositions that structure a query
# ("in", "on", "from", ...) are listed here too: the query parser looks at them
# *before* they are dropped, and phrases such as "sign in" are recognised before
# stop-word removal.
STOP_WORDS: frozenset[str] = frozenset(
    """
    a an the this that these those there here it its it's i me my mine we us our ours
    you your yours he she they them their his her
    to of for in on at by with from into onto within inside as
    and or but nor so then than also just only very really
    is are was were be been being am does did has have had having
    can could would should will shall may might must
    please kindly some any each every which what where who whom whose how why when
    up down out off under
    """.split()
)

# Verbs and fillers that say *what to do* rather than *which element*; they only ever add
# to a score when an element actually contains them ("bonus-only" terms).
GENERIC_WORDS: frozenset[str] = frozenset(
    """
    click clicking press tap hit push go goto navigate open view see show display look
    check use using choose pick select want need let get make find enter type fill put
    input write read visit access hover focus scroll locate element thing one item icon
    area part want would now just enable disable turn change
    """.split()
)
# Modifiers that narrow little: matched normally but weigh less than content words.
LOW_WEIGHT_WORDS: frozenset[str] = frozenset(
    """
    different another other current existing entire whole specific particular certain
    """.split()
)
# Role words that, opening a query, are verbs ("switch to dark mode", "toggle sound").
VERB_ROLE_WORDS: frozenset[str] = frozenset({"switch", "toggle", "input"})
# note: several of these (select, check, open, like, read) are also common name words; they
# are matched normally when an element contains them and never penalise one that does not.

# State adjectives -> (element state, value): "the unchecked newsletter box".
STATE_WORDS: dict[str, tuple[str, bool]] = {
    "unchecked": ("checked", False), "unticked": ("checked", False), "unselected": ("checked", False),
    "checked": ("checked", True), "ticked": ("checked", True),
    "expanded": ("expanded", True), "collapsed": ("expanded", False),
    "disabled": ("disabled", True), "greyed": ("disabled", True), "grayed": ("disabled", True),
    "inactive": ("disabled", True),
}
# Verbs that imply the state the target is in now ("uncheck X": X is checked).
STATE_VERBS: dict[str, tuple[str, bool]] = {
    "uncheck": ("checked", True), "untick": ("checked", True), "deselect": ("checked", True),
    "unselect": ("checked", True), "tick": ("checked", False), "check": ("checked", False),
    "expand": ("expanded", False), "collapse": ("expanded", True),
}

# Ordinal words -> position (1-based; -1 = last, -2 = second to last).
ORDINALS: dict[str, int] = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "fifth": 5, "5th": 5, "sixth": 6, "6th": 6, "seventh": 7, "7th": 7, "eighth": 8, "8th": 8,
    "ninth": 9, "9th": 9, "tenth": 10, "10th": 10, "last": -1, "final": -1, "penultimate": -2,
}
# "<ordinal> <word>" pairs that are names, not positions ("first name" field).
ORDINAL_LITERAL_NEXT: frozenset[str] = frozenset(
    """
    name names page time timer class party person aid lady half quarter
    updated modified seen edited active used visit visited week month year day days hour hours
    minute minutes
    """.split()
)
# ...but "last login link" is still an ordinal when "login" is followed by a role word; the
# parser only treats "last login" as literal when it is the end of the query or the page
# literally contains the pair.

# Words that introduce an exclusion.
NEGATION_WORDS: frozenset[str] = frozenset({"not", "except", "excluding", "exclude", "without", "besides", "outside", "isnt", "arent"})
NEGATION_PHRASES: tuple[tuple[str, ...], ...] = (
    ("other", "than"), ("apart", "from"), ("but", "not"), ("and", "not"), ("rather", "than"), ("instead", "of"),
)

# Prepositions that introduce a context (container) phrase.
CONTEXT_PREPS: frozenset[str] = frozenset({"in", "inside", "within", "from", "on", "under", "for", "of", "at", "into", "to"})

# Spatial relations to another element: phrase -> relation name.
RELATION_PHRASES: dict[tuple[str, ...], str] = {
    ("below",): "below", ("beneath",): "below", ("underneath",): "below",
    ("above",): "above",
    ("next", "to"): "near", ("beside",): "near", ("near",): "near", ("nearby",): "near", ("close", "to"): "near",
    ("alongside",): "near",
    ("left", "of"): "left", ("to", "the", "left", "of"): "left",
    ("right", "of"): "right", ("to", "the", "right", "of"): "right",
    ("after",): "after", ("before",): "before", ("following",): "after", ("preceding",): "before",
}

# Directions for positional phrases ("on the left", "top right corner").
DIRECTION_WORDS: dict[str, tuple[str, ...]] = {
    "left": ("left",), "leftmost": ("left",), "right": ("right",), "rightmost": ("right",),
    "top": ("top",), "topmost": ("top",), "upper": ("top",), "bottom": ("bottom",), "lower": ("bottom",),
    "bottommost": ("bottom",), "middle": ("center",), "center": ("center",), "centre": ("center",),
}
# Words that, next to a direction word, make it positional rather than part of a name.
DIRECTION_MARKERS: frozenset[str] = frozenset(
    {"side", "corner", "area", "edge", "part", "half", "region", "screen", "page", "window", "hand", "end"}
)

# Section / container nouns: when a query mentions them they locate the element
# (matched against section, parent and ancestor names/roles) as well as its text.
CONTAINER_WORDS: frozenset[str] = frozenset(
    """
    header footer sidebar sidenav navbar nav navigation menu menubar toolbar dialog modal popup
    popover overlay drawer banner main content form panel table grid row column section
    breadcrumb breadcrumbs tabbar topbar statusbar card list tab region pane window
    """.split()
)

# Query role words -> {role: strength}. Strength 1 = exactly what was asked for.
_TEXT_INPUT = {"textbox": 1.0, "searchbox": 1.0, "combobox": 0.9, "textarea": 1.0, "spinbutton": 0.9, "input": 1.0, "textfield": 1.0}
ROLE_WORDS: dict[str, dict[str, float]] = {
    "button": {"button": 1.0, "menuitem": 0.5, "link": 0.45, "tab": 0.4, "switch": 0.4, "togglebutton": 1.0, "menubutton": 1.0},
    "btn": {"button": 1.0, "menuitem": 0.5, "link": 0.45, "tab": 0.4, "togglebutton": 1.0, "menubutton": 1.0},
    "link": {"link": 1.0, "button": 0.45, "tab": 0.45, "menuitem": 0.45},
    "hyperlink": {"link": 1.0},
    "tab": {"tab": 1.0, "link": 0.4},
    "field": _TEXT_INPUT, "input": _TEXT_INPUT, "box": _TEXT_INPUT, "textbox": _TEXT_INPUT,
    "textfield": _TEXT_INPUT, "textarea": _TEXT_INPUT, "editor": _TEXT_INPUT,
    "bar": {"searchbox": 0.9, "textbox": 0.7, "combobox": 0.7, "toolbar": 1.0, "menubar": 1.0, "navigation": 0.6, "tablist": 0.6},
    "checkbox": {"checkbox": 1.0, "switch": 0.8, "menuitemcheckbox": 0.9},
    "tickbox": {"checkbox": 1.0, "switch": 0.8},
    "toggle": {"switch": 1.0, "checkbox": 0.8, "togglebutton": 1.0, "button": 0.4},
    "switch": {"switch": 1.0, "checkbox": 0.8},
    "radio": {"radio": 1.0, "menuitemradio": 0.9},
    "dropdown": {"combobox": 1.0, "listbox": 1.0, "menu": 0.8, "menubutton": 0.8, "button": 0.3},
    "combobox": {"combobox": 1.0, "listbox": 0.8},
    "picker": {"combobox": 0.8, "listbox": 0.8, "button": 0.5},
    "selector": {"combobox": 0.8, "listbox": 0.8, "button": 0.5, "radiogroup": 0.6},
    "chooser": {"combobox": 0.8, "listbox": 0.8, "button": 0.5},
    "listbox": {"listbox": 1.0, "combobox": 0.8},
    "menu": {"menu": 1.0, "menubar": 1.0, "menubutton": 1.0, "menuitem": 0.5},
    "menuitem": {"menuitem": 1.0, "menuitemcheckbox": 1.0, "menuitemradio": 1.0, "option": 0.5},
    "option": {"option": 1.0, "menuitem": 0.7, "radio": 0.7, "menuitemradio": 0.8},
    "heading": {"heading": 1.0},
    "headline": {"heading": 1.0},
    "image": {"img": 1.0, "image": 1.0, "figure": 0.8}, "picture": {"img": 1.0, "image": 1.0},
    "photo": {"img": 1.0, "image": 1.0}, "img": {"img": 1.0, "image": 1.0}, "logo": {"img": 0.6, "link": 0.4},
    "row": {"row": 1.0}, "cell": {"cell": 1.0, "gridcell": 1.0}, "column": {"columnheader": 1.0},
    "table": {"table": 1.0, "grid": 1.0, "treegrid": 1.0}, "grid": {"grid": 1.0, "table": 1.0},
    "dialog": {"dialog": 1.0, "alertdialog": 1.0}, "modal": {"dialog": 1.0, "alertdialog": 1.0},
    "popup": {"dialog": 1.0, "alertdialog": 1.0, "menu": 0.7, "tooltip": 0.6},
    "slider": {"slider": 1.0}, "spinner": {"spinbutton": 1.0}, "stepper": {"spinbutton": 1.0},
    "tooltip": {"tooltip": 1.0}, "alert": {"alert": 1.0, "alertdialog": 1.0, "status": 0.6},
    "banner": {"banner": 1.0, "alert": 0.5}, "paragraph": {"paragraph": 1.0, "text": 0.8, "statictext": 0.8},
    "label": {"text": 0.6, "statictext": 0.6, "label": 1.0}, "article": {"article": 1.0},
    "list": {"list": 1.0, "listbox": 0.6}, "tree": {"tree": 1.0}, "treeitem": {"treeitem": 1.0},
    "progressbar": {"progressbar": 1.0}, "navigation": {"navigation": 1.0}, "nav": {"navigation": 1.0},
    "region": {"region": 1.0}, "form": {"form": 1.0},
    "error": {"alert": 1.0, "alertdialog": 0.8, "status": 0.6}, "warning": {"alert": 1.0, "alertdialog": 0.8, "status": 0.6},
}
# Role words that only weakly constrain (containers, media); the rest are strong.
WEAK_ROLE_WORDS: frozenset[str] = frozenset(
    """
    menu list table grid dialog modal popup image picture photo img logo form navigation nav region article
    banner alert tooltip label paragraph bar tree progressbar error warning
    """.split()
)
# Multi-word role phrases (after normalisation they are looked up as joined tokens).
ROLE_PHRASES: dict[tuple[str, ...], str] = {
    ("check", "box"): "checkbox", ("tick", "box"): "tickbox", ("text", "box"): "textbox",
    ("text", "field"): "textfield", ("text", "input"): "textfield", ("input", "field"): "textfield",
    ("text", "area"): "textarea", ("drop", "down"): "dropdown", ("combo", "box"): "combobox",
    ("list", "box"): "listbox", ("menu", "item"): "menuitem", ("radio", "button"): "radio",
    ("option", "button"): "radio", ("toggle", "switch"): "toggle", ("toggle", "button"): "toggle",
    ("select", "box"): "dropdown", ("select", "menu"): "dropdown", ("pop", "up"): "popup",
    ("error", "message"): "error", ("warning", "message"): "warning", ("error", "text"): "error",
}
# Containers: almost never the element an agent wants to act on.
CONTAINER_ROLES: frozenset[str] = frozenset(
    """
    dialog alertdialog menu menubar toolbar table grid treegrid navigation banner contentinfo main region form
    list tablist tabpanel group complementary document application search rowgroup tree radiogroup
    rootwebarea webarea iframe section feed
    """.split()
)
# Roles that are not themselves actionable; a query without a role word that names them
# prefers actionable elements.
NON_INTERACTIVE_ROLES: frozenset[str] = frozenset(
    """
    heading text statictext paragraph cell gridcell columnheader rowheader row rowgroup region banner
    contentinfo main navigation complementary generic group list listitem img image figure tooltip
    status alert log marquee timer table grid treegrid dialog alertdialog menu menubar toolbar
    tablist tabpanel separator article document presentation none note definition term caption
    label legend form search section blockquote code emphasis strong time labeltext linebreak
    inlinetextbox listmarker descriptionlist term
    """.split()
)
INTERACTIVE_ROLES: frozenset[str] = frozenset(
    """
    button link textbox searchbox combobox checkbox radio switch slider spinbutton tab menuitem
    menuitemcheckbox menuitemradio option treeitem listbox textarea input togglebutton menubutton
    """.split()
)
# Element role -> words describing it, matched weakly like text ("search" names a searchbox).
ROLE_TEXT: dict[str, str] = {
    "searchbox": "search box field", "textbox": "text box field input", "combobox": "dropdown select",
    "checkbox": "checkbox", "switch": "toggle switch", "radio": "radio option", "spinbutton": "number",
    "link": "link", "button": "button", "tab": "tab", "menuitem": "menu item", "option": "option",
    "img": "image", "heading": "heading title", "slider": "slider", "dialog": "dialog modal",
    "alertdialog": "dialog modal alert", "row": "row", "cell": "cell", "columnheader": "column",
}
# A typed input's type -> words describing it ("upload my CV" is the file input)
INPUT_TYPE_TEXT: dict[str, str] = {"file": "file upload", "tel": "phone number", "url": "website url"}
# Ancestor role -> context words (so "in the dialog", "from the menu" find descendants).
CONTAINER_ROLE_TEXT: dict[str, str] = {
    "dialog": "dialog modal popup", "alertdialog": "dialog modal popup alert notification",
    "menu": "menu dropdown", "menubar": "menu", "listbox": "dropdown list", "combobox": "dropdown",
    "toolbar": "toolbar", "navigation": "navigation nav", "banner": "header", "contentinfo": "footer",
    "complementary": "sidebar", "main": "main content", "form": "form", "search": "search",
    "row": "row", "table": "table", "grid": "table grid", "treegrid": "table", "tablist": "tabs",
    "tabpanel": "tab panel", "region": "section", "article": "post article message", "list": "list",
    "tooltip": "tooltip", "group": "group",
}

# Verbs that act on something: the target is usually a button (or menu item).
ACTION_VERBS: frozenset[str] = frozenset(
    """
    add remove delete edit save submit send share copy cut paste download upload archive print export import
    refresh reload retry reply close cancel dismiss confirm approve accept decline reject invite create
    follow unfollow like star favorite bookmark play pause stop mute unmute sort apply clear reset undo redo
    pin unpin move rename duplicate mark buy purchase checkout subscribe unsubscribe attach compose post
    publish fork clone watch report block hide expand collapse react zoom rotate crop install update
    customize customise configure personalize personalise
    """.split()
)
_ACTION_HINT = {"button": 1.0, "menuitem": 0.8, "switch": 0.5}

# Verb -> role family hint (weak preference).
VERB_ROLE_HINTS: dict[str, dict[str, float]] = {
    "type": _TEXT_INPUT, "enter": _TEXT_INPUT, "fill": _TEXT_INPUT, "write": _TEXT_INPUT, "input": _TEXT_INPUT,
    "tick": {"checkbox": 1.0, "switch": 1.0}, "untick": {"checkbox": 1.0, "switch": 1.0},
    "uncheck": {"checkbox": 1.0, "switch": 1.0, "menuitemcheckbox": 1.0},
    "deselect": {"checkbox": 1.0, "switch": 0.8, "option": 0.8, "radio": 0.6},
    "enable": {"checkbox": 1.0, "switch": 1.0, "button": 0.3}, "disable": {"checkbox": 1.0, "switch": 1.0, "button": 0.3},
    "turn": {"checkbox": 1.0, "switch": 1.0}, "toggle": {"checkbox": 1.0, "switch": 1.0},
    "choose": {"combobox": 1.0, "listbox": 1.0, "option": 1.0, "radio": 1.0, "menuitem": 0.8},
    "select": {"combobox": 0.8, "listbox": 0.8, "option": 0.8, "radio": 0.8, "checkbox": 0.8, "menuitem": 0.6},
    "pick": {"combobox": 1.0, "listbox": 1.0, "option": 1.0, "radio": 1.0},
    "click": {"button": 1.0, "link": 1.0}, "press": {"button": 1.0}, "tap": {"button": 1.0, "link": 1.0},
    "go": {"link": 1.0, "tab": 1.0}, "navigate": {"link": 1.0, "tab": 1.0}, "visit": {"link": 1.0},
    "open": {"link": 0.7, "button": 0.7, "tab": 0.7}, "view": {"link": 0.7, "tab": 0.7, "button": 0.5},
    "read": {"link": 0.8, "tab": 0.8},
    "change": {"button": 1.0, "combobox": 1.0, "menuitem": 0.8, "listbox": 0.8, "textbox": 0.6},
}
for _v in ACTION_VERBS:
    VERB_ROLE_HINTS.setdefault(_v, _ACTION_HINT)

# Stems that must not lose a trailing "s"/"ing" (the stemmer consults this).
STEM_EXCEPTIONS: frozenset[str] = frozenset(
    """
    news series species always perhaps yes this its his was has does bus gas plus minus lens canvas atlas alias
    bonus focus campus virus status ios macos https http sms gps css js analytics physics mathematics statistics
    economics politics ethics setting thing string spring ring king bring sing wing nothing something
    anything everything during ceiling morning evening evening billing shipping pricing heading during
    less unless across process access address express dress press class glass pass
    """.split()
)
