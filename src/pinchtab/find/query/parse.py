"""Query understanding: turn a natural-language query into weighted terms plus structure.

Recognised structure (all optional):

* **role words** - "button", "link", "field", "checkbox", "dropdown", "menu item" ... prefer
  elements of that role ("login button" vs a "Login" link).
* **context**    - "in the header", "from the account menu", "for Acme Corp": those words
  are matched against the element's section / parent / ancestors (and still, a little,
  against its own text). Container nouns ("footer login link") act the same way.
* **negation**   - "not in header", "except footer", "button not cancel", "other than ...":
  elements matching the negated phrase are excluded.
* **ordinals**   - "second edit button", "last row", "3rd link": pick among the matches in
  document order, after exclusions. "first name" / "last name" (and any ordinal+word pair
  the page itself contains) are literal text, not ordinals.
* **positions**  - "on the left", "top right corner", "at the bottom of the page".
* **relations**  - "below password", "next to the discount code", "left of state".

Words that only say what to do ("click", "open", "go to", "enable") are bonus-only terms:
they raise elements containing them and never penalise elements that lack them.

Parsing depends only on the query string plus, for the literal-text guards, a predicate
telling whether the page contains a word pair; :class:`~pinchtab.find.matcher.ElementIndex`
caches the parse per query.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..text import vocab
from ..text.lexical import Unit, concepts_of_word, query_units, stem
from .container_ordinal import CONTAINER_NOUNS, CONTAINER_PREPS

__all__ = ["Term", "ParsedQuery", "parse_query", "parse_query_for_page"]

W_CONTENT = 1.0
W_DIGITS = 1.3
W_ROLE = 0.6
W_ROLE_WEAK = 0.4
W_CONTAINER = 0.8
W_GENERIC = 0.35
W_LOW = 0.4
W_MOTION = 0.25  # "go back to X": the motion says little about the element (a "Return to X" still says it)
STATE_MISMATCH = 0.7       # "unchecked" and the element is checked
STATE_VERB_MISMATCH = 0.9  # "uncheck" and the element is already unchecked
SHARED_CONCEPT = 0.9       # synonym-level concept shared by neighbouring query words

_NEG_PHRASES = {tuple(p) for p in vocab.NEGATION_PHRASES}
_REL_BY_FIRST: dict[str, list[tuple[tuple[str, ...], str]]] = {}
for _k, _v in sorted(
    ((tuple(w for w in k if w != "the"), v) for k, v in vocab.RELATION_PHRASES.items()), key=lambda kv: -len(kv[0])
):
    _REL_BY_FIRST.setdefault(_k[0], []).append((_k, _v))
_PREP_CTX = frozenset({"in", "inside", "within", "from", "on", "under", "for", "at", "into", "beneath"}) - {"beneath"}
_MOTION = frozenset({"go", "go back", "return", "navigate", "head", "head back", "get back", "come back", "jump",
                     "take me", "take me back", "bring me", "bring me back"})
_DIR_PREPS = frozenset({"on", "at", "in", "to", "towards", "toward", "near"})
_POS_FILLER = frozenset({"of", "page", "screen", "window", "side", "corner", "area", "edge", "part", "half", "region", "hand", "end", "the", "most"})


@dataclass(frozen=True, slots=True)
class Term:
    unit: Unit
    weight: float
    bonus: bool = False         # generic verb/filler: only ever adds
    ctx: bool = False           # inside a context phrase ("in the header")
    container: bool = False     # container noun: context matches count fully
    role: str | None = None     # role word key
    joins: tuple[str, ...] = () # compounds formed with neighbouring words
    digits: bool = False

    @property
    def key(self) -> tuple:
        return (self.unit.text, self.unit.phrase, self.joins)


@dataclass(slots=True)
class ParsedQuery:
    text: str
    terms: list[Term] = field(default_factory=list)
    exclude: list[list[Term]] = field(default_factory=list)
    ordinal: int | None = None
    directions: tuple[str, ...] = ()
    relation: tuple[str, list[Term]] | None = None
    verb_hints: dict[str, float] = field(default_factory=dict)
    role_terms: tuple[str, ...] = ()
    lead_verb: int | None = None  # index in terms of the verb the query opens with ("refund Chen Wei")
    action_verb: bool = False     # ... and that word is a specific action ("approve", "download")
    states: dict[str, tuple[bool, float]] = field(default_factory=dict)  # state -> (wanted, factor)
    ordinal_of_container: bool = False  # "checkbox of the last row": the ordinal counts rows
    shared: tuple = ()            # (term a, term b, related concept, a's quality, b's quality): see scoring
    icon_term: int | None = None  # index of the word "icon" in terms


def _plural_of(u: Unit, role: str) -> bool:
    return not u.phrase and len(u.words) == 1 and u.words[0] != role and u.words[0] in (role + "s", role + "es")


def _make_terms(units: list[Unit], *, ctx: bool) -> list[Term]:
    """Units of one segment -> terms (stop words dropped, compounds attached)."""
    content = [u for u in units if not u.stop] or [u for u in units if u.words[0] not in _PREP_CTX]
    only_generic = all(u.generic for u in content)
    terms: list[Term] = []
    for k, u in enumerate(content):
        if (k == 0 and u.role and not u.phrase and u.words[0] in vocab.VERB_ROLE_WORDS and len(content) > 1
                and not ctx):
            # "switch to dark mode", "toggle sound": a verb, not the target's role
            terms.append(Term(u, W_GENERIC, bonus=True))
            continue
        joins = []
        if not u.phrase:
            if k > 0 and not content[k - 1].phrase:
                joins.append(stem(content[k - 1].words[-1] + u.words[0]))
            if k + 1 < len(content) and not content[k + 1].phrase:
                joins.append(stem(u.words[-1] + content[k + 1].words[0]))
        digits = any(c.isdigit() for c in u.text)
        if u.role and not u.phrase and ctx:
            # "in the dialog", "from the menu": a container, not the target's role
            terms.append(Term(u, W_CONTAINER, ctx=True, container=True, joins=tuple(joins)))
        elif u.role and u.role in vocab.WEAK_ROLE_WORDS and _plural_of(u, u.role):
            # "add labels", "errors page": a plural of a weak role word names things the page
            # lists (its labels, its errors pages), not the role of the target
            terms.append(Term(u, W_CONTENT, ctx=ctx, joins=tuple(joins)))
        elif (u.role and u.role in vocab.WEAK_ROLE_WORDS and not u.phrase and k + 1 < len(content)
              and content[k + 1].role and content[k + 1].role not in vocab.WEAK_ROLE_WORDS):
            # "region dropdown", "menu button": the word before the role says which one (its
            # label, or where it sits), it is not a second role
            terms.append(Term(u, W_CONTAINER, ctx=ctx, container=True, joins=tuple(joins)))
        elif u.role:
            weak = u.role in vocab.WEAK_ROLE_WORDS
            terms.append(Term(u, W_ROLE_WEAK if weak else W_ROLE, ctx=ctx, role=u.role, joins=tuple(joins),
                              container=u.container))
        elif u.generic and not only_generic:
            terms.append(Term(u, W_GENERIC, bonus=True, ctx=ctx, joins=tuple(joins)))
        elif u.container:
            terms.append(Term(u, W_CONTAINER, ctx=ctx, container=True, joins=tuple(joins)))
        elif not u.phrase and u.words[0] in vocab.LOW_WEIGHT_WORDS:
            terms.append(Term(u, W_LOW, ctx=ctx, joins=tuple(joins)))
        else:
            terms.append(Term(u, W_DIGITS if digits else W_CONTENT, ctx=ctx, joins=tuple(joins), digits=digits))
    return terms


def _counts_containers(units: list[Unit], i: int, main: list) -> bool:
    """Is the ordinal just before ``units[i]`` counting the containers that word names, with
    the target before it ("checkbox of the last row", "edit in the second card")?"""
    if i >= len(units) or units[i].phrase or units[i].words[0] not in CONTAINER_NOUNS:
        return False
    j = i - 2
    while j >= 0 and not units[j].phrase and units[j].words[0] == "the":
        j -= 1
    if j < 0 or units[j].phrase or units[j].words[0] not in CONTAINER_PREPS:
        return False
    return any(not u.stop for u, _ in main)


def parse_query(query: str, literal: Callable[[str, str], bool] | None = None) -> ParsedQuery:
    """Parse ``query``. ``literal(a, b)`` says whether the page contains the word pair a b."""
    lit = literal or (lambda a, b: False)
    units = list(query_units(query))
    pq = ParsedQuery(text=query)
    if not units:
        return pq
    n = len(units)
    main: list[tuple[Unit, bool]] = []   # (unit, in_ctx)
    negs: list[list[Unit]] = []
    rel: tuple[str, list[Unit]] | None = None
    mode = "main"
    in_ctx = False
    i = 0

    def nxt_word(j: int) -> str:
        return units[j].words[0] if j < n else ""

    while i < n:
        u = units[i]
        w = u.words[0] if not u.phrase else None
        # ---- negation
        neg_len = 0
        if w is not None and w in vocab.NEGATION_WORDS and not lit(w, nxt_word(i + 1)):
            neg_len = 1
        elif w is not None and i + 1 < n and (w, nxt_word(i + 1)) in _NEG_PHRASES:
            neg_len = 2
        if neg_len and i + neg_len < n:
            negs.append([])
            mode = "neg"
            i += neg_len
            continue
        # ---- relation to another element
        if w is not None and mode != "neg":
            hit = None
            for phrase, relname in _REL_BY_FIRST.get(w, ()):
                L = len(phrase)
                if i > 0 and i + L < n and all(
                    not units[i + k].phrase and units[i + k].words[0] == phrase[k] for k in range(L)
                ):
                    if not lit(phrase[-1], nxt_word(i + L)) and not lit(units[i - 1].words[-1], w):
                        hit = (phrase, relname)
                    break
            if hit:
                rel = (hit[1], [])
                mode = "rel"
                i += len(hit[0])
                continue
        # ---- positional phrase ("on the left", "top right corner", "bottom of the page")
        if w is not None and w in vocab.DIRECTION_WORDS and mode == "main":
            prev_w = units[i - 1].words[-1] if i > 0 and not units[i - 1].phrase else ""
            next_w = nxt_word(i + 1)
            positional = (
                prev_w in _DIR_PREPS
                or next_w in vocab.DIRECTION_MARKERS
                or next_w in vocab.DIRECTION_WORDS
                or prev_w in vocab.DIRECTION_WORDS
                or (next_w == "of" and nxt_word(i + 2) in ("page", "screen", "window", "form", "list"))
            )
            if positional and not lit(w, next_w) and not (prev_w and lit(prev_w, w) and prev_w not in _DIR_PREPS):
                dirs = list(pq.directions)
                for d in vocab.DIRECTION_WORDS[w]:
                    if d not in dirs:
                        dirs.append(d)
                pq.directions = tuple(dirs)
                # drop the preposition that introduced it
                if main and main[-1][0].words[-1] in _DIR_PREPS and not main[-1][0].phrase:
                    main.pop()
                i += 1
                while i < n and not units[i].phrase and units[i].words[0] in _POS_FILLER:
                    i += 1
                in_ctx = False
                continue
        # ---- ordinal
        if w is not None and w in vocab.ORDINALS and pq.ordinal is None and mode == "main":
            next_w = nxt_word(i + 1)
            others = [x for j, x in enumerate(units) if j != i and not x.stop]
            literal_pair = (
                next_w in vocab.ORDINAL_LITERAL_NEXT
                or lit(w, next_w)
                or not others
            )
            if not literal_pair:
                pq.ordinal = vocab.ORDINALS[w]
                i += 1
                if _counts_containers(units, i, main):
                    pq.ordinal_of_container = True
                    i += 1
                    in_ctx = False
                continue
        # ---- context preposition
        if w is not None and w in _PREP_CTX and not u.phrase:
            if mode == "main":
                in_ctx = True
            i += 1
            continue
        if mode == "neg":
            negs[-1].append(u)
        elif mode == "rel":
            rel[1].append(u)
        else:
            main.append((u, in_ctx))
        i += 1

    # ---- terms ("this project", "Emma's role": the owner is context, unless it is all there is)
    if any(not (u.owner or c or u.stop or u.generic) for u, c in main):
        main = [(u, c or u.owner) for u, c in main]
    plain = [u for u, c in main if not c]
    ctxu = [u for u, c in main if c]
    terms = _make_terms(plain, ctx=False) + _make_terms(ctxu, ctx=True)
    if not any(not t.bonus for t in terms) and terms:
        # nothing but generic words: they are the content
        terms = [Term(t.unit, W_CONTENT, ctx=t.ctx, joins=t.joins) if t.bonus else t for t in terms]
    if (len(main) > 2 and terms and terms[0].unit is main[0][0] and main[0][0].text in _MOTION
            and main[1][0].text == "to" and any(not x.stop for x, _ in main[2:])):
        # "go back to the previous track", "return to the inbox": where to, not a Back button
        terms[0] = Term(terms[0].unit, W_MOTION, joins=terms[0].joins)
    pq.terms = terms
    pq.exclude = [_make_terms(g, ctx=False) for g in negs if g]
    pq.exclude = [[Term(t.unit, t.weight if not t.bonus else W_GENERIC, bonus=t.bonus, ctx=True, container=True, role=t.role,
                        joins=t.joins) for t in g] for g in pq.exclude if g]
    if rel and rel[1]:
        pq.relation = (rel[0], _make_terms(rel[1], ctx=False))
    pq.role_terms = tuple(t.role for t in terms if t.role)
    hints: dict[str, float] = {}
    if main:
        first = main[0][0]
        h = vocab.VERB_ROLE_HINTS.get(first.words[0]) if not first.phrase and len(main) > 1 else None
        if h:
            hints.update(h)
    # "turn on"/"enable" phrases
    if main and main[0][0].phrase and any(k in ("c:enable", "c:disable") for k, _ in main[0][0].concepts):
        for r, s in vocab.VERB_ROLE_HINTS["enable"].items():
            hints[r] = max(hints.get(r, 0.0), s)
    pq.verb_hints = hints
    if len(terms) > 1 and terms[0].unit is main[0][0] and not terms[0].ctx and not terms[0].role:
        # "refund Chen Wei", "select flight SL 112": the first word names the control, the
        # rest often the row or item it sits in
        pq.lead_verb = 0
        u0 = terms[0].unit
        pq.action_verb = (not u0.phrase and u0.words[0] in vocab.ACTION_VERBS and not terms[0].bonus
                          and any(not t.bonus and not t.role for t in terms[1:]))
    # states: "the unchecked stops filter" (an adjective: strong), "uncheck X" (X is checked now: weak)
    if len(terms) > 1:
        for k, t in enumerate(terms):
            if t.unit.phrase or t.ctx or t.role:
                continue
            sv = vocab.STATE_WORDS.get(t.unit.words[0])
            if sv is not None:
                pq.states[sv[0]] = (sv[1], STATE_MISMATCH)
                terms[k] = Term(t.unit, W_GENERIC, bonus=True, joins=t.joins)
    if main and len(main) > 1 and not main[0][1]:
        u0 = main[0][0]
        sv = None
        if not u0.phrase:
            sv = vocab.STATE_VERBS.get(u0.words[0])
        elif any(k == "c:enable" for k, _ in u0.concepts):
            sv = ("checked", False)
        elif any(k == "c:disable" for k, _ in u0.concepts):
            sv = ("checked", True)
        if sv is not None and sv[0] not in pq.states:
            pq.states[sv[0]] = (sv[1], STATE_VERB_MISMATCH)
    # two words for one thing ("create a new channel", "hotel room"): the second only adds
    for k in range(1, len(terms)):
        a, b = terms[k - 1], terms[k]
        if a.bonus or b.bonus or a.role or b.role or a.ctx != b.ctx:
            continue
        ca = {c for c, q in a.unit.concepts if q >= SHARED_CONCEPT}
        if ca and any(c in ca for c, q in b.unit.concepts if q >= SHARED_CONCEPT):
            terms[k] = Term(b.unit, W_GENERIC, bonus=True, ctx=b.ctx, joins=b.joins)
    pq.terms = terms
    pq.shared = _shared_related(terms, f" {' '.join(query.lower().split())} ", pq.lead_verb)
    pq.icon_term = next((k for k, t in enumerate(terms) if not t.unit.phrase and not t.ctx
                         and t.unit.words[0] in _ICON_WORDS), None) if len(terms) > 1 else None
    return pq


# words that say a control is drawn, not written: "trash icon", "the arrow that moves ..."
_ICON_WORDS = frozenset({"icon", "icons", "arrow", "arrows"})


def _related_keys(t: Term) -> dict[str, float]:
    """The related-concept keys a term answers to, its phrase's words' included."""
    keys = {k: q for k, q in t.unit.concepts if k.endswith("-rel")}
    if t.unit.phrase:
        for st in t.unit.stems:
            for k, q in concepts_of_word(st).items():
                if k.endswith("-rel") and q > keys.get(k, 0.0):
                    keys[k] = q
    return keys


def _shared_related(terms: list[Term], text: str, lead: int | None) -> tuple:
    """Pairs of terms that answer to one related concept (``scoring`` lets one element word
    answer only one of them); two nouns side by side are one thing ("search query") and stay."""
    if len(terms) < 2:
        return ()
    keys = [None if t.role else _related_keys(t) for t in terms]
    out = []
    for a, ka in enumerate(keys):
        if not ka:
            continue
        for b in range(a + 1, len(terms)):
            kb = keys[b]
            if not kb or (a != lead and f" {terms[a].unit.text} {terms[b].unit.text} " in text):
                continue
            for key in sorted(ka.keys() & kb.keys()):
                out.append((a, b, key, ka[key], kb[key]))
    return tuple(out)


_GLOBAL: dict[str, tuple[ParsedQuery, frozenset]] = {}
_GLOBAL_MAX = 4096


def parse_query_for_page(query: str, pairs) -> ParsedQuery:
    """``parse_query`` with a page-independent cache.

    The parse is cached per query string together with the word pairs its literal-text
    guards consulted; it is reused for any page that contains none of those pairs, and
    redone (uncached) for a page that does. ``pairs`` is the page's set of adjacent words
    (anything with ``in``).
    """
    hit = _GLOBAL.get(query)
    if hit is None:
        consulted: set = set()

        def record(a: str, b: str) -> bool:
            consulted.add((a, b))
            return False

        pq = parse_query(query, record)
        hit = (pq, frozenset(consulted))
        if len(_GLOBAL) >= _GLOBAL_MAX:
            _GLOBAL.clear()
        _GLOBAL[query] = hit
    pq, consulted = hit
    if consulted and any(p in pairs for p in consulted):
        return parse_query(query, lambda a, b: (a, b) in pairs)
    return pq


def clear_parse_cache() -> None:
    _GLOBAL.clear()
