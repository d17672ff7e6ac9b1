"""Static vocabulary for the find matcher: stop words, generic verbs, role words,
synonym groups, abbreviations and query-structure words.

Everything here is general web-UI vocabulary (what buttons, links, fields and icons are
usually called, and how people ask for them). Nothing is keyed to a particular page.

Surface forms are written in plain English; :mod:`pinchtab.find.lexical` normalises them
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
    "textfield": _TEXT_INPUT, "textarea": _TEXT_INPUT,
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

# ---------------------------------------------------------------------------------------
# Synonym groups. Each group is one concept. "syn" members are interchangeable on a web
# page; "rel" groups are looser associations (scored lower).
# Multi-word members are phrases. Keep this to common UI vocabulary.
# ---------------------------------------------------------------------------------------
SYNONYMS: list[tuple[str, str, list[str]]] = [
    # --- authentication
    ("login", "syn", ["sign in", "signin", "log in", "login", "log on", "logon", "sign on", "authenticate"]),
    ("logout", "syn", ["sign out", "signout", "log out", "logout", "log off", "logoff", "sign off"]),
    ("signup", "syn", ["sign up", "signup", "register", "registration", "create account", "create an account",
                       "new account", "create your account"]),
    ("signup-rel", "rel", ["sign up", "register", "join", "get started", "enroll", "enrol"]),
    ("pwreset", "syn", ["forgot password", "forgotten password", "reset password", "recover password", "lost password",
                        "password reset", "forgot your password", "password recovery", "trouble signing in",
                        "trouble logging in", "cant log in"]),
    ("remember", "syn", ["remember me", "remember", "keep me logged in", "keep me signed in", "stay signed in",
                         "stay logged in", "keep logged in", "keep signed in", "remember this device", "trust this device"]),
    ("password", "syn", ["password", "pwd", "passwd", "passphrase", "pass phrase"]),
    ("passcode", "rel", ["password", "passcode", "pin", "pin code"]),
    ("username", "syn", ["username", "user name", "user id", "userid", "login name", "handle"]),
    ("email", "syn", ["email", "e-mail", "email address", "mail address", "emails"]),
    ("mail", "rel", ["email", "mail", "message", "envelope", "inbox"]),
    ("twofa", "syn", ["2fa", "two factor", "two-factor authentication", "two factor authentication", "mfa",
                      "multi factor", "multifactor", "2 step verification", "two step", "two-step verification",
                      "2-step verification", "2sv", "otp", "one time password", "one-time code", "authenticator app"]),
    ("account", "rel", ["account", "profile", "my account", "avatar", "user menu", "me"]),
    # --- navigation / structure
    ("home", "syn", ["home", "homepage", "home page", "main page", "start page", "front page", "house"]),
    ("home-rel", "rel", ["home", "dashboard", "logo", "overview"]),
    ("menu", "syn", ["menu", "hamburger", "hamburger menu", "navigation menu", "nav menu", "main menu", "three lines", "burger"]),
    ("more", "syn", ["more", "more options", "more actions", "three dots", "kebab", "kebab menu", "meatball", "meatballs",
                     "meatball menu", "ellipsis", "overflow", "overflow menu", "dots", "vertical dots", "horizontal dots",
                     "actions menu", "options menu"]),
    ("back", "syn", ["back", "go back", "left arrow", "return to"]),
    ("previous", "syn", ["previous", "prev", "newer", "earlier", "back", "previous page", "prev page"]),
    ("next", "syn", ["next", "forward", "older", "right arrow", "next page"]),
    ("skip", "syn", ["skip to content", "skip to main content", "jump to content", "skip navigation", "skip nav",
                     "skip to main", "jump to main content", "skip links"]),
    ("skip-rel", "rel", ["skip", "jump", "bypass"]),
    ("toc", "syn", ["table of contents", "toc", "on this page", "in this article", "jump to section"]),
    ("breadcrumb", "rel", ["breadcrumb", "breadcrumbs", "path", "trail"]),
    ("page", "rel", ["page", "screen", "view"]),
    ("tab", "rel", ["tab", "section", "panel"]),
    # --- common actions
    ("search", "syn", ["search", "find", "look up", "lookup", "magnifying glass", "magnifier", "magnify", "search bar",
                       "search box", "search field"]),
    ("search-rel", "rel", ["search", "query", "keywords", "look for", "search term"]),
    ("settings", "syn", ["settings", "setting", "preferences", "preference", "prefs", "configuration", "config",
                         "configure", "gear", "cog", "cogwheel", "gear icon"]),
    ("settings-rel", "rel", ["settings", "options", "customize", "customise", "personalize", "setup", "set up", "controls"]),
    ("delete", "syn", ["delete", "remove", "trash", "trash can", "bin", "garbage", "erase", "destroy", "wastebasket",
                       "delete permanently", "rubbish"]),
    ("delete-rel", "rel", ["delete", "discard", "clear", "drop", "uninstall", "deactivate", "unsubscribe"]),
    ("close", "syn", ["close", "dismiss", "x", "x icon", "cross", "close button"]),
    ("close-rel", "rel", ["close", "exit", "quit", "cancel", "collapse", "minimize"]),
    ("cancel", "syn", ["cancel", "abort", "never mind", "nevermind", "go back", "no thanks", "not now"]),
    ("cancel-rel", "rel", ["cancel", "discard", "close", "dismiss", "reset"]),
    ("submit", "syn", ["submit", "send", "publish", "go", "paper plane"]),
    ("submit-rel", "rel", ["submit", "post", "confirm", "ok", "okay", "apply", "done", "finish", "save", "continue", "proceed",
                           "complete", "place order", "update", "enter"]),
    ("confirm", "syn", ["confirm", "ok", "okay", "yes", "accept", "agree", "approve", "allow", "i agree", "got it"]),
    ("decline", "syn", ["decline", "reject", "deny", "refuse", "disagree", "block", "no"]),
    ("save", "syn", ["save", "save changes", "store", "keep", "floppy", "floppy disk", "disk icon"]),
    ("save-rel", "rel", ["save", "apply", "update", "submit", "done", "confirm"]),
    ("edit", "syn", ["edit", "modify", "change", "pencil", "pen", "rename", "amend", "update"]),
    ("add", "syn", ["add", "plus", "new", "create", "insert", "plus icon", "plus sign", "add new"]),
    ("add-rel", "rel", ["add", "invite", "attach", "upload", "include", "append", "compose", "start", "make"]),
    ("copy", "syn", ["copy", "duplicate", "clone", "copy to clipboard", "two rectangles"]),
    ("paste", "syn", ["paste", "insert from clipboard"]),
    ("cut", "syn", ["cut", "scissors"]),
    ("share", "syn", ["share", "share link", "send to", "forward"]),
    ("download", "syn", ["download", "save as", "down arrow", "get file"]),
    ("download-rel", "rel", ["download", "export", "save", "backup", "get", "pdf", "csv", "zip"]),
    ("upload", "syn", ["upload", "import", "up arrow", "attach", "attach file", "attachment", "paperclip", "paper clip"]),
    ("refresh", "syn", ["refresh", "reload", "circular arrow", "circular arrows", "sync", "resync"]),
    ("update-rel", "rel", ["update", "refresh", "sync"]),
    ("undo", "syn", ["undo", "revert", "curved left arrow", "roll back", "rollback"]),
    ("redo", "syn", ["redo", "curved right arrow", "repeat"]),
    ("print", "syn", ["print", "printer"]),
    ("filter", "syn", ["filter", "filters", "refine", "narrow", "funnel", "sliders"]),
    ("sort", "syn", ["sort", "order by", "sort by", "arrange", "rank"]),
    ("expand", "syn", ["expand", "show more", "unfold", "chevron down", "maximize", "see more", "read more"]),
    ("collapse", "syn", ["collapse", "show less", "fold", "chevron up", "minimize", "hide", "see less"]),
    ("show", "syn", ["show", "display", "reveal", "unhide", "view", "eye", "eye icon", "visible", "see"]),
    ("hide", "syn", ["hide", "conceal", "eye slash", "invisible", "private", "crossed eye"]),
    ("fullscreen", "syn", ["fullscreen", "full screen", "maximize", "enlarge", "expand arrows", "theater mode"]),
    ("zoomin", "syn", ["zoom in", "magnify", "enlarge", "plus"]),
    ("zoomout", "syn", ["zoom out", "shrink", "minus"]),
    ("archive", "syn", ["archive", "archived", "box with down arrow", "store away"]),
    ("move", "syn", ["move", "move to", "relocate", "transfer", "folder with arrow"]),
    ("pin", "syn", ["pin", "pinned", "pushpin", "stick", "keep on top"]),
    ("open", "rel", ["open", "launch", "start", "view", "go to", "visit", "enter", "access"]),
    ("select-all", "syn", ["select all", "check all", "choose all", "all items", "bulk select", "select everything"]),
    ("bulk", "rel", ["bulk", "batch", "mass", "multiple", "selected", "all selected", "en masse"]),
    ("clear", "syn", ["clear", "reset", "erase", "wipe", "empty", "clear all", "x"]),
    ("retry", "syn", ["retry", "try again", "reattempt", "redo"]),
    ("approve", "syn", ["approve", "accept", "allow", "authorize", "authorise", "grant"]),
    ("report", "syn", ["report", "flag", "report abuse", "report a problem", "flag icon"]),
    ("report-rel", "rel", ["report", "issue", "bug", "problem", "feedback", "complaint"]),
    ("issue", "syn", ["issue", "bug", "problem", "defect", "ticket"]),
    # --- content / social
    ("favorite", "syn", ["favorite", "favourite", "fav", "fave", "favorites", "favourites", "wishlist", "wish list",
                         "save for later", "saved items"]),
    ("favorite-rel", "rel", ["favorite", "star", "bookmark", "like", "heart", "save for later", "wishlist",
                             "add to list", "watchlist", "watch list", "follow"]),
    ("bookmark", "syn", ["bookmark", "bookmarks", "save for later", "read later", "bookmark icon"]),
    ("like", "syn", ["like", "heart", "thumbs up", "upvote", "love", "heart icon", "plus one"]),
    ("dislike", "syn", ["dislike", "thumbs down", "downvote", "unlike"]),
    ("comment", "syn", ["comment", "comments", "reply", "replies", "respond", "speech bubble", "discuss", "discussion"]),
    ("comment-rel", "rel", ["comment", "comments", "conversation", "join the conversation", "discussion",
                            "say something", "leave a comment", "add a comment", "write a comment"]),
    ("react", "syn", ["react", "reaction", "reactions", "add reaction", "emoji reaction", "smiley plus"]),
    ("emoji", "syn", ["emoji", "emojis", "emoticon", "smiley", "smiley face", "smilies"]),
    ("mention", "syn", ["mention", "mentions", "tag someone", "at symbol", "@"]),
    ("message", "syn", ["message", "messages", "chat", "dm", "direct message", "direct messages", "pm", "private message",
                        "conversation", "conversations", "inbox", "msg"]),
    ("compose", "syn", ["compose", "new message", "new email", "new mail", "write message", "write email", "draft",
                        "pencil square", "start a message", "new conversation"]),
    ("notifications", "syn", ["notifications", "notification", "notify", "notify me", "alerts", "alert", "bell",
                              "bell icon", "activity",
                              "updates", "inbox"]),
    ("help", "syn", ["help", "support", "question mark", "help center", "help centre", "assistance", "customer support",
                     "customer service", "get help", "?"]),
    ("help-rel", "rel", ["help", "faq", "faqs", "docs", "documentation", "guide", "guides", "contact", "knowledge base"]),
    ("info", "syn", ["info", "information", "details", "about", "i in circle", "info icon", "more info", "learn more"]),
    ("contact", "syn", ["contact", "contact us", "get in touch", "reach us", "talk to us", "email us"]),
    ("about", "rel", ["about", "about us", "company", "who we are", "info"]),
    ("docs", "syn", ["docs", "documentation", "doc", "manual", "reference", "api reference", "guide", "handbook", "wiki"]),
    ("changelog", "syn", ["changelog", "change log", "release notes", "releases", "what's new", "whats new", "history of changes"]),
    ("history", "syn", ["history", "recent", "clock", "clock icon", "activity log", "log"]),
    ("calendar", "syn", ["calendar", "date picker", "datepicker", "calendar icon", "pick a date", "choose date", "schedule"]),
    ("date", "rel", ["date", "day", "dates", "calendar", "mm dd", "dd mm", "mm dd yyyy", "dd mm yyyy", "yyyy mm dd"]),
    ("time", "rel", ["time", "hour", "clock", "schedule"]),
    ("timezone", "syn", ["timezone", "time zone", "tz", "utc offset"]),
    ("language", "syn", ["language", "languages", "lang", "locale", "translate", "translation", "globe", "globe icon"]),
    ("region", "rel", ["region", "country", "location", "locale", "area"]),
    ("country", "syn", ["country", "nation", "country region"]),
    ("theme", "syn", ["theme", "appearance", "color scheme", "colour scheme", "look and feel", "skin"]),
    ("darkmode", "syn", ["dark mode", "dark theme", "night mode", "moon", "moon icon", "lights off"]),
    ("lightmode", "syn", ["light mode", "light theme", "day mode", "sun", "sun icon"]),
    ("profile", "syn", ["profile", "my profile", "avatar", "user profile", "profile picture", "account page", "your profile"]),
    ("user", "rel", ["user", "users", "member", "members", "people", "person", "teammate", "teammates", "team",
                     "contributors", "colleague", "colleagues", "collaborators"]),
    ("invite", "syn", ["invite", "invitation", "invite user", "add people", "add member", "add teammates", "add user"]),
    ("privacy", "syn", ["privacy", "privacy policy", "privacy notice", "privacy statement", "data policy"]),
    ("terms", "syn", ["terms", "terms of service", "tos", "terms of use", "terms and conditions", "terms & conditions",
                      "t&c", "user agreement", "legal terms", "conditions of use"]),
    ("legal", "rel", ["legal", "terms", "privacy", "policy", "imprint", "disclaimer", "license", "licence"]),
    ("cookies", "syn", ["cookie", "cookies", "cookie settings", "cookie preferences", "cookie banner", "cookie consent"]),
    ("license", "syn", ["license", "licence", "licensing", "mit license", "copyright"]),
    # --- commerce
    ("cart", "syn", ["cart", "basket", "bag", "shopping cart", "shopping bag", "shopping basket", "trolley", "view cart",
                     "my cart"]),
    ("checkout", "syn", ["checkout", "check out", "proceed to checkout", "go to checkout", "pay now", "place order",
                         "complete purchase", "complete order", "buy now", "pay", "purchase", "complete my purchase"]),
    ("buy", "syn", ["buy", "purchase", "buy now", "order", "order now", "get it now", "shop now"]),
    ("price", "rel", ["price", "cost", "amount", "total", "fee", "pricing", "$"]),
    ("quantity", "syn", ["quantity", "qty", "amount", "count", "number of items", "how many", "how much"]),
    ("coupon", "syn", ["coupon", "promo", "promo code", "promotion code", "discount", "discount code", "voucher",
                       "voucher code", "coupon code", "gift card", "gift code", "redeem code"]),
    ("shipping", "syn", ["shipping", "delivery", "postage", "ship", "shipment", "deliver"]),
    ("billing", "rel", ["billing", "payment", "invoice", "invoices", "subscription", "plan", "card", "pay"]),
    ("payment", "syn", ["payment", "payments", "pay", "payment method", "credit card", "debit card"]),
    ("card", "syn", ["card number", "credit card number", "card no", "cc number", "pan"]),
    ("cvv", "syn", ["cvv", "cvc", "cvv2", "security code", "card verification", "card security code", "csc"]),
    ("expiry", "syn", ["expiry", "expiration", "expiry date", "expiration date", "expires", "exp date", "valid thru",
                       "valid until", "mm yy"]),
    ("zip", "syn", ["zip", "zip code", "zipcode", "postal code", "postcode", "post code", "postal"]),
    ("address", "syn", ["address", "street", "street address", "address line", "addr"]),
    ("city", "syn", ["city", "town", "locality"]),
    ("state", "rel", ["state", "province", "county", "region"]),
    ("phone", "syn", ["phone", "telephone", "tel", "mobile", "mobile number", "phone number", "cell", "cellphone", "call"]),
    ("sms", "syn", ["sms", "text message", "text messages", "texts", "text alerts", "sms alerts", "mobile alerts"]),
    ("sms-rel", "rel", ["sms", "text", "mobile", "phone"]),
    ("firstname", "syn", ["first name", "given name", "forename", "firstname", "fname"]),
    ("lastname", "syn", ["last name", "surname", "family name", "lastname", "lname"]),
    ("fullname", "rel", ["full name", "name", "display name", "your name"]),
    ("dob", "syn", ["date of birth", "dob", "birthday", "birth date", "birthdate"]),
    ("gender", "syn", ["gender", "sex"]),
    ("wishlist", "syn", ["wishlist", "wish list", "save for later", "add to wishlist", "wishlist button"]),
    ("review", "syn", ["review", "reviews", "rating", "ratings", "feedback", "testimonials", "stars"]),
    ("stock", "rel", ["in stock", "availability", "available"]),
    ("order", "rel", ["order", "orders", "order history", "purchases", "my orders", "bookings", "trips"]),
    ("size", "rel", ["size", "sizes", "dimensions", "fit"]),
    ("color", "syn", ["color", "colour", "colors", "colours", "shade"]),
    # --- travel
    ("origin", "syn", ["from", "origin", "source", "departure", "depart", "departing", "leaving from", "flying from", "departure city",
                       "departure airport", "start location", "pickup"]),
    ("destination", "syn", ["to", "destination", "arrival", "arriving", "going to", "flying to", "arrival city",
                            "arrival airport", "where to", "drop off"]),
    ("return", "rel", ["return", "returning", "inbound", "back", "return date", "round trip"]),
    ("oneway", "syn", ["one way", "one-way", "single", "single trip"]),
    ("roundtrip", "syn", ["round trip", "return trip", "return ticket"]),
    ("travelers", "syn", ["travelers", "travellers", "traveler", "traveller", "passengers", "passenger", "guests",
                          "guest", "people", "persons", "pax", "occupants"]),
    ("nonstop", "syn", ["nonstop", "non-stop", "non stop", "direct", "direct flight", "direct flights", "no stops"]),
    ("baggage", "syn", ["baggage", "luggage", "bags", "suitcase", "checked bags", "carry on", "carry-on"]),
    ("hotel", "syn", ["hotel", "hotels", "accommodation", "accommodations", "stays", "lodging"]),
    ("hotel-rel", "rel", ["hotel", "room", "rooms"]),
    ("flight", "syn", ["flight", "flights", "airfare", "fly", "plane", "air tickets"]),
    ("car", "rel", ["car", "car rental", "car hire", "rental car", "cars"]),
    ("booking", "rel", ["booking", "bookings", "reservation", "reservations", "trips", "my trips", "itinerary"]),
    ("cabin", "syn", ["cabin", "cabin class", "class", "seat class", "fare class", "travel class", "class of service"]),
    # --- media
    ("play", "syn", ["play", "start", "resume", "triangle pointing right", "play button"]),
    ("pause", "syn", ["pause", "two vertical bars", "hold"]),
    ("stop", "syn", ["stop", "square", "halt"]),
    ("mute", "syn", ["mute", "silence", "sound off", "speaker with x", "unmute", "volume off"]),
    ("volume", "syn", ["volume", "sound", "audio", "speaker", "speaker icon", "loudness"]),
    ("video", "syn", ["video", "videos", "clip", "movie", "film"]),
    ("image", "syn", ["image", "images", "picture", "pictures", "photo", "photos", "img", "pic", "pics", "gallery"]),
    ("camera", "rel", ["camera", "photo", "avatar", "picture", "webcam"]),
    ("voice", "syn", ["voice", "microphone", "mic", "speech", "dictate", "audio message", "voice message",
                      "voice note", "record audio", "audio clip"]),
    ("call", "rel", ["call", "huddle", "meeting", "video call", "voice call", "headphones", "phone"]),
    ("skipfwd", "syn", ["skip forward", "fast forward", "next track", "double right arrows"]),
    ("skipback", "syn", ["skip back", "rewind", "previous track", "double left arrows"]),
    # --- data / dev
    ("export", "syn", ["export", "export data", "download data", "export csv", "download csv", "save as csv"]),
    ("import", "syn", ["import", "upload data", "import csv"]),
    ("repo", "syn", ["repo", "repository", "repositories", "repos"]),
    ("pullrequest", "syn", ["pull request", "pull requests", "pr", "prs", "merge request", "merge requests", "mr"]),
    ("branch", "syn", ["branch", "branches", "branch selector", "switch branch", "checkout branch"]),
    ("ci", "syn", ["ci", "ci cd", "build", "builds", "pipeline", "pipelines", "workflow", "workflows", "workflow runs",
                   "checks", "continuous integration"]),
    ("api", "rel", ["api", "api keys", "api key", "tokens", "token", "access tokens", "credentials", "keys", "secrets",
                    "developer"]),
    ("apikey", "syn", ["api key", "api keys", "api token", "api tokens", "access token", "access tokens",
                       "personal access token", "secret key"]),
    ("sdk", "rel", ["sdk", "client", "library", "client library", "package", "bindings"]),
    ("code", "rel", ["code", "source", "source code", "snippet", "code snippet"]),
    ("file", "syn", ["file", "files", "document", "documents", "attachment"]),
    ("folder", "syn", ["folder", "folders", "directory", "directories", "label", "labels"]),
    ("spam", "syn", ["spam", "junk", "junk mail", "report spam"]),
    ("trash", "syn", ["trash", "bin", "deleted items", "recycle bin", "deleted", "rubbish bin", "wastebasket"]),
    ("draft", "syn", ["draft", "drafts", "unsent"]),
    ("sent", "syn", ["sent", "sent mail", "sent items", "outbox"]),
    ("recipient", "syn", ["recipient", "recipients", "to", "send to", "addressee", "to field"]),
    ("subject", "syn", ["subject", "subject line", "title", "topic"]),
    ("body", "rel", ["body", "message body", "content", "text", "message"]),
    ("channel", "rel", ["channel", "channels", "room", "rooms", "group", "#"]),
    ("thread", "syn", ["thread", "threads", "reply in thread", "replies"]),
    ("status", "rel", ["status", "state", "health", "uptime"]),
    ("stats", "rel", ["stats", "statistics", "analytics", "insights", "metrics", "charts"]),
    ("dashboard", "syn", ["dashboard", "overview", "home", "summary"]),
    ("feed", "rel", ["feed", "timeline", "news feed", "stream", "posts"]),
    ("new", "rel", ["new", "newest", "latest", "recent", "fresh"]),
    ("old", "rel", ["old", "oldest", "older", "earlier", "past", "previous"]),
    ("popular", "rel", ["popular", "top", "trending", "hot", "best"]),
    ("digest", "rel", ["digest", "newsletter", "summary", "roundup"]),
    ("newsletter", "syn", ["newsletter", "newsletters", "mailing list", "marketing emails", "marketing email",
                           "promotional emails", "promotions", "email updates", "subscribe to newsletter"]),
    ("subscribe", "rel", ["subscribe", "subscription", "sign up", "join", "newsletter", "follow", "opt in", "watch"]),
    ("unsubscribe", "rel", ["unsubscribe", "opt out", "stop", "turn off", "disable", "disable emails"]),
    ("enable", "syn", ["enable", "turn on", "switch on", "activate", "opt in", "allow"]),
    ("disable", "syn", ["disable", "turn off", "switch off", "deactivate", "opt out", "stop"]),
    ("public", "rel", ["public", "visible", "everyone", "discoverable", "searchable", "index", "indexed"]),
    ("private", "rel", ["private", "hidden", "only me", "hide", "invisible"]),
    ("share-data", "rel", ["share", "sharing", "shared", "third party", "third parties", "partners"]),
    ("permissions", "rel", ["permissions", "role", "roles", "access", "rights", "privileges"]),
    ("admin", "syn", ["admin", "administrator", "owner", "superuser"]),
    ("device", "rel", ["device", "devices", "session", "sessions", "browser", "browsers"]),
    ("everywhere", "rel", ["everywhere", "all sessions", "all devices", "other sessions", "all other sessions"]),
    ("forum", "rel", ["forum", "community", "discord", "slack", "chat", "discussions", "discussion board"]),
    ("tutorial", "rel", ["tutorial", "quickstart", "quick start", "getting started", "walkthrough", "guide", "how to"]),
    ("install", "syn", ["install", "installation", "setup", "set up", "installing"]),
    ("version", "rel", ["version", "release", "v", "versions"]),
    ("requirements", "rel", ["requirements", "prerequisites", "dependencies", "system requirements"]),
    ("feedback", "rel", ["feedback", "helpful", "rate this page", "was this helpful"]),
    ("yes", "syn", ["yes", "yep", "thumbs up", "helpful", "agree"]),
    ("no", "syn", ["no", "nope", "thumbs down", "not helpful", "disagree"]),
    ("location", "syn", ["location", "map", "address", "place", "pin", "where"]),
    ("huddle", "rel", ["huddle", "call", "meeting", "audio call", "voice chat"]),
    ("format", "rel", ["format", "formatting", "style", "text style", "bold", "rich text"]),
    ("attach", "syn", ["attach", "attachment", "attachments", "attach file", "attach files", "add file", "paperclip",
                       "upload file", "upload"]),
    ("unread", "rel", ["unread", "new", "unseen"]),
    ("read", "rel", ["read", "seen", "mark as read"]),
    ("snooze", "syn", ["snooze", "snoozed", "remind me later", "later"]),
    ("star", "syn", ["star", "starred", "star outline", "star icon", "mark important"]),
    ("label", "rel", ["label", "labels", "tag", "tags", "category", "categories"]),
    ("avatar", "rel", ["avatar", "profile picture", "profile photo", "photo", "picture", "camera"]),
    ("notice", "rel", ["banner", "notice", "notification", "message", "announcement", "toast"]),
    ("optional", "rel", ["optional", "apartment", "suite", "unit", "apt"]),
    ("company", "rel", ["company", "organization", "organisation", "org", "business", "employer"]),
    ("website", "rel", ["website", "site", "url", "homepage", "web address", "link"]),
    ("job", "rel", ["job", "jobs", "careers", "career", "work here", "hiring", "positions"]),
    ("price-sort", "rel", ["cheapest", "lowest price", "price low to high"]),
    ("recurring", "syn", ["recurring", "repeat", "repeating", "recurrence", "recur", "repeats"]),
    ("frequency", "rel", ["frequency", "recurring", "monthly", "weekly", "daily", "yearly", "annually",
                          "every month", "every week", "one time", "once"]),
    ("note", "syn", ["note", "notes", "memo", "remark", "remarks", "annotation"]),
    ("proceed", "rel", ["continue", "proceed", "next", "next step", "go on", "move on"]),
    ("listen-syn", "syn", ["listen", "play audio", "audio version", "read aloud", "text to speech", "narration",
                           "listen to this article"]),
    ("listen", "rel", ["listen", "audio", "play audio", "read aloud", "text to speech", "audio version",
                       "narration", "podcast", "headphones"]),
    ("more-rel", "rel", ["expand", "more", "show more", "see all", "view all", "read more", "see more"]),
    ("watchlater", "rel", ["watch later", "save to playlist", "playlist", "add to playlist", "queue",
                           "save for later"]),
    ("author", "syn", ["author", "byline", "written by", "writer", "posted by", "reporter", "journalist"]),
    ("captions", "syn", ["captions", "closed captions", "subtitles", "cc", "subs"]),
    ("task", "rel", ["task", "tasks", "card", "cards", "todo", "ticket", "tickets", "item"]),
    ("assign", "rel", ["assign", "assignee", "assigned", "reassign", "members", "change members", "owner"]),
    ("bigger", "rel", ["bigger", "larger", "increase", "enlarge", "grow", "zoom in"]),
    ("smaller", "rel", ["smaller", "decrease", "shrink", "reduce", "zoom out"]),
    ("increase", "syn", ["increase", "increment", "plus", "plus sign", "add one"]),
    ("decrease", "syn", ["decrease", "decrement", "minus", "minus sign", "remove one"]),
    ("currency", "syn", ["currency", "currencies", "usd", "eur", "gbp", "jpy", "cad", "aud", "chf", "inr"]),
    ("ads", "syn", ["advertising", "advertisement", "advertisements", "ads", "marketing", "targeting",
                    "targeted advertising", "personalised ads", "personalized ads", "ad personalization"]),
    ("necessary", "syn", ["necessary", "essential", "required", "strictly necessary", "essentials"]),
    ("vendors", "syn", ["vendor", "vendors", "partner", "partners", "third parties", "third party", "providers"]),
    ("schedule", "syn", ["schedule", "timetable", "agenda", "timetables", "schedules"]),
    ("diff", "syn", ["diff", "diffs", "files changed", "changed files", "changes", "compare changes"]),
    ("article", "rel", ["article", "story", "post", "piece", "news"]),
    ("bookmark-rel", "rel", ["bookmark", "save", "saved", "read later", "save for later"]),
    ("range-start", "rel", ["from", "start", "begin", "beginning", "since", "earliest"]),
    ("range-end", "rel", ["to", "end", "until", "till", "through", "latest"]),
    ("manage", "rel", ["manage", "customize", "customise", "configure", "adjust", "preferences", "options",
                       "choices", "my choices"]),
    ("sourcecode", "rel", ["source code", "source", "repository", "repo", "codebase"]),
    ("express-checkout", "rel", ["express checkout", "buy with", "pay with", "checkout", "buy now", "one click"]),
    ("presence", "rel", ["online", "status", "presence", "availability", "away", "active now"]),
]

# Opposite actions/states. An element that says the opposite of a query word (and not the
# word itself) is penalised: "read reviews" is not "Write a review", "log in" is not "Log out".
ANTONYMS: list[tuple[str, str]] = [
    ("read", "write"), ("show", "hide"), ("enable", "disable"), ("open", "close"), ("next", "previous"),
    ("upload", "download"), ("import", "export"), ("log in", "log out"), ("log in", "sign up"),
    ("subscribe", "unsubscribe"), ("pin", "unpin"), ("like", "dislike"), ("follow", "unfollow"),
    ("expand", "collapse"), ("zoom in", "zoom out"), ("lock", "unlock"), ("undo", "redo"),
    ("accept", "decline"), ("approve", "reject"), ("start", "stop"), ("play", "pause"),
    ("maximize", "minimize"), ("upvote", "downvote"), ("increase", "decrease"), ("public", "private"),
    ("yes", "no"), ("add", "remove"), ("mute", "unmute"), ("archive", "unarchive"), ("star", "unstar"),
    ("save", "discard"), ("submit", "cancel"), ("check", "uncheck"), ("select", "deselect"),
    ("first", "last"), ("older", "newer"), ("more", "less"),
]

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
