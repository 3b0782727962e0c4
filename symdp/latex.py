r"""LaTeX for theorems, errata and derivations: a document that compiles with pdflatex, as the papers write it.

Three pieces, one concern each:

* :class:`PaperLatexPrinter` prints SymPy expressions as the papers do: ``\varepsilon`` (not ``\epsilon``),
  ``\varphi``, primes on any name (``epsilon'`` is ``\varepsilon'``), multi-letter subscripts upright
  (``E_GM`` is ``E_{\mathrm{GM}}``).
* :func:`text` turns the plain Unicode/ASCII text of the modules (titles, notes, hypotheses, step reasons) into
  LaTeX text mode: prose is escaped, and the mathematics in it — runs such as ``D_{e^eps}(mu || nu)``, ``τ ≤ 1/4``
  or ``sqrt(2 rho)`` — is set in ``$…$`` with Greek names, relations and roots translated. Text that already holds
  ``$…$`` keeps it as written.
* :func:`theorem_block`, :func:`derivation_block` and :func:`document` lay them out: display math that is broken
  at relations and between terms when it is too wide for the page, an ``erratum`` environment for a statement as
  printed that is false (with its counterexample), derivations as aligned chains with their reasons as text.

>>> import sympy as sp
>>> latex(sp.Symbol("epsilon'") + sp.Symbol("E_GM"))
"E_{\\mathrm{GM}} + {\\varepsilon'}"
>>> text("KL ≤ τ²/2 for 50% of the draws_")
'KL $\\le \\tau^{2}/2$ for 50\\% of the draws\\_'
>>> text("Hockey-stick divergence as epsilon -> oo")
'Hockey-stick divergence as $\\varepsilon \\to \\infty$'
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Iterable, Optional, Sequence

import sympy as sp
from sympy.printing.conventions import split_super_sub
from sympy.printing.latex import LatexPrinter, translate

from symdp.citations import PAPERS, cite, cite_seeds, paper_of, reference

# --- the printer ---------------------------------------------------------------------------------------------------

PAPER_NAMES = {"epsilon": r"\varepsilon", "eps": r"\varepsilon", "phi": r"\varphi"}
"""Symbol names the papers write with the variant glyph."""


class PaperLatexPrinter(LatexPrinter):
    r"""SymPy's LaTeX printer with the papers' conventions for symbol names.

    >>> PaperLatexPrinter().doprint(sp.Symbol("x'_1") + sp.Symbol("r_s'") + sp.Symbol("epsilon_0"))
    "\\varepsilon_{0} + {r_{s'}} + {x'_{1}}"
    """

    def _deal_with_super_sub(self, string: str, style: str = "plain") -> str:
        if "{" in string or self._settings.get("disable_split_super_sub"):
            return super()._deal_with_super_sub(string, style=style)
        name, supers, subs = split_super_sub(string)
        tex = _name_tex(name)
        if style == "bold":
            tex = rf"\mathbf{{{tex}}}"
        if supers:
            tex += "^{%s}" % " ".join(_name_tex(s, index=True) for s in supers)
        if subs:
            tex += "_{%s}" % " ".join(_name_tex(s, index=True) for s in subs)
        return "{%s}" % tex if "'" in tex else tex  # a prime is a superscript: x'^2 would be a double one


def _name_tex(name: str, index: bool = False) -> str:
    """One part of a symbol name: Greek and special names translated, primes kept, words upright in indices."""
    core = name.rstrip("'")
    primes = name[len(core):]
    if core in PAPER_NAMES:
        tex = PAPER_NAMES[core]
    else:
        tex = translate(core)
        if index and tex == core and len(core) > 1 and core.isalpha():
            tex = rf"\mathrm{{{core}}}"
    return tex + primes


def latex(expr, **settings) -> str:
    """``expr`` printed by :class:`PaperLatexPrinter` (``sympy.latex`` with the papers' conventions)."""
    return PaperLatexPrinter(settings).doprint(expr)


def module_latex(tex: str) -> str:
    r"""LaTeX written by hand in a module (``structure_latex``, an erratum), with the papers' ``\varepsilon``.

    >>> module_latex(r"e^{\epsilon} \le \epsilon_0")
    'e^{\\varepsilon} \\le \\varepsilon_0'
    """
    return re.sub(r"\\epsilon(?![A-Za-z])", r"\\varepsilon", tex)


# --- plain text to LaTeX -------------------------------------------------------------------------------------------

GREEK = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau upsilon phi chi "
         "psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega").split()
MATH_WORDS = {name: PAPER_NAMES.get(name, "\\" + name) for name in GREEK}
MATH_WORDS.update({
    "eps": r"\varepsilon", "oo": r"\infty", "infty": r"\infty", "inf": r"\inf", "sup": r"\sup", "lim": r"\lim",
    "log": r"\log", "ln": r"\ln", "exp": r"\exp", "tanh": r"\tanh", "cosh": r"\cosh", "sinh": r"\sinh",
    "sech": r"\operatorname{sech}", "sin": r"\sin", "cos": r"\cos", "max": r"\max", "min": r"\min",
    "Max": r"\max", "Min": r"\min", "sum": r"\sum", "prod": r"\prod", "int": r"\int", "sqrt": r"\sqrt",
    "Pr": r"\Pr", "Var": r"\operatorname{Var}", "Cov": r"\operatorname{Cov}", "grad": r"\nabla",
    "spec": r"\operatorname{spec}", "Lap": r"\operatorname{Lap}",
    "Lap2": r"\operatorname{Lap2}", "argmin": r"\operatorname{arg\,min}", "argmax": r"\operatorname{arg\,max}",
    "ell": r"\ell", "Abs": r"\operatorname{Abs}", "iff": r"\iff", "varphi": r"\varphi",
    "varepsilon": r"\varepsilon", "vartheta": r"\vartheta",
})
"""Words that are mathematics wherever they appear in text, and their LaTeX."""

UNICODE_MATH = {
    "≤": r"\le", "≥": r"\ge", "≠": r"\ne", "≡": r"\equiv", "≪": r"\ll", "≫": r"\gg", "≈": r"\approx",
    "→": r"\to", "←": r"\leftarrow", "⇒": r"\Rightarrow", "⇔": r"\iff", "∈": r"\in", "∉": r"\notin",
    "⊂": r"\subset", "⊆": r"\subseteq", "∝": r"\propto", "∞": r"\infty", "∫": r"\int", "∑": r"\sum",
    "∏": r"\prod", "∇": r"\nabla", "∂": r"\partial", "√": r"\sqrt", "‖": r"\|", "⟨": r"\langle", "⟩": r"\rangle",
    "±": r"\pm", "∓": r"\mp", "·": r"\cdot", "×": r"\times", "∘": r"\circ", "−": "-", "∀": r"\forall",
    "∃": r"\exists", "ℝ": r"\mathbb{R}", "ℤ": r"\mathbb{Z}", "ℕ": r"\mathbb{N}", "Õ": r"\tilde{O}",
    "≲": r"\lesssim", "∧": r"\wedge", "∨": r"\vee", "⊥": r"\perp", "∼": r"\sim", "⌈": r"\lceil", "⌉": r"\rceil",
    "⌊": r"\lfloor", "⌋": r"\rfloor",
    "²": "^{2}", "³": "^{3}", "⁴": "^{4}", "⁵": "^{5}", "ⁿ": "^{n}", "⁻": "^{-}", "¹": "^{1}",
    "₀": "_{0}", "₁": "_{1}", "₂": "_{2}", "₃": "_{3}", "ᵢ": "_{i}", "ₘ": "_{m}", "ₙ": "_{n}",
}
UNICODE_MATH.update(zip("αβγδεζηθικλμνξπρστυφχψω", (MATH_WORDS[name] for name in GREEK[:23])))
UNICODE_MATH.update(zip("ΓΔΘΛΞΠΣΥΦΨΩ", (MATH_WORDS[name] for name in GREEK[23:])))
UNICODE_MATH.update({"ϵ": r"\varepsilon", "ϕ": r"\varphi", "ε": r"\varepsilon", "φ": r"\varphi"})
"""Unicode mathematics and its LaTeX (Greek letters, relations, sub- and superscript digits)."""

ASCII_RELATIONS = {"<=>": r"\iff", "<->": r"\leftrightarrow", "<=": r"\le", ">=": r"\ge", "!=": r"\ne",
                   "->": r"\to", "=>": r"\Rightarrow", "||": r"\,\|\,", "==": "="}
MATH_SYMBOLS = set("=<>+*/^_|~\u0303")  # U+0303: a combining tilde, as in σ̃
TEXT_ESCAPES = {"_": r"\_", "%": r"\%", "&": r"\&", "#": r"\#", "{": r"\{", "}": r"\}", "$": r"\$",
                "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}",
                "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", "§": r"\S{}", "…": r"\dots{}",
                "–": "--", "—": "---", "“": "``", "”": "''", "‘": "`", "’": "'"}
ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0303": "~", "\u0308": '"', "\u0327": "c"}

_TOKEN = re.compile(r"""
    (?P<tex>\$[^$]+\$)                                        # LaTeX already: kept as written
  | (?P<code>`[^`]+`|\b[\w.-]+\.(?:txt|md|py)\b                       # code: quoted, file names,
      |\b(?:symdp|proofs|tests)(?:\.\w+)+|\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b  # modules, CONSTANT_NAMES,
      |\b(?!(?:GREEK_NAMES)_)[a-z][a-z0-9]+(?:_[a-z0-9]{2,})+\b)   # snake_case_names, but not sigma_alpha
  | (?P<abbr>\b(?:e\.g\.|i\.e\.|w\.r\.t\.|cf\.|vs\.|resp\.|WLOG)(?!\w))
  | (?P<space>\s+)
  | (?P<number>\d+(?:\.\d+)*(?:'s(?![A-Za-z]))?)
  | (?P<word>[A-Za-zÀ-ÖØ-öø-ÿĀ-ſḀ-ỿ]+[0-9]*(?:'[A-Za-z]+)*)
  | (?P<rel><=>|<->|<=|>=|!=|->|=>|\|\||==)
  | (?P<char>.)
""".replace("GREEK_NAMES", "|".join(sorted(GREEK + ["eps"], key=len, reverse=True))), re.VERBOSE | re.DOTALL)

MATH, WEAK, STOP = "math", "weak", "stop"
VERB_LIKE = {"sum", "prod", "int", "Max", "Min", "Abs", "max", "min", "sign"}
"""Words that are operators only when an argument or index follows them at once (``sum_x``, ``Max(``)."""


class _Tok:
    __slots__ = ("kind", "value", "cls")

    def __init__(self, kind: str, value: str):
        self.kind, self.value, self.cls = kind, value, STOP

    def __repr__(self):
        return f"{self.kind}:{self.value!r}:{self.cls}"


def _tokens(s: str) -> list[_Tok]:
    return [_Tok(m.lastgroup, m.group()) for m in _TOKEN.finditer(s)]


def _is_math_word(word: str) -> bool:
    base = word.rstrip("0123456789")
    return (word in MATH_WORDS or base in MATH_WORDS or (len(base) == 1 and base.isascii())
            or (len(word) == 2 and word[0] == "d" and word[1] != "o"))  # dX, dt: differentials


def _classify(toks: list[_Tok]) -> None:
    """Mark each token as mathematics (starts a run), weak (joins a run) or a stop (ends it), first by what it is,
    then by its neighbours (:func:`_by_context`)."""
    for i, t in enumerate(toks):
        t.cls = _own_class(toks, i)
    _by_context(toks)


def _own_class(toks: list[_Tok], i: int) -> str:
    t, v = toks[i], toks[i].value
    if t.kind in ("tex", "code", "abbr"):
        return STOP
    if t.kind == "space" or (t.kind == "number" and "'" not in v):
        return WEAK
    if t.kind == "rel":
        return MATH
    if t.kind == "word":
        if "'" in v or v in ("a", "A", "I", "in"):
            return STOP  # a possessive, L'Hopital, the article, the preposition (unless in mathematics: below)
        if v.isupper() and len(v) > 1:
            return WEAK  # an acronym (KL, DP, OU, E11) reads the same in text
        return MATH if _is_math_word(v) else STOP
    if v in ("^", "_"):  # an index needs something to index; a spaced ^ is the papers' minimum (a ^ b)
        glued = i + 1 < len(toks) and toks[i + 1].kind != "space" and i > 0 and toks[i - 1].kind != "space"
        spaced = 0 < i < len(toks) - 1 and toks[i - 1].kind == toks[i + 1].kind == "space" and v == "^"
        return MATH if glued or spaced else STOP
    if v in UNICODE_MATH or v in MATH_SYMBOLS:
        return MATH
    if v in "()[]{},'-" or (v == "." and i + 1 < len(toks) and toks[i + 1].kind != "space"):
        return WEAK
    return STOP


def _by_context(toks: list[_Tok]) -> None:
    """Words whose class depends on their neighbours: "a" and "in" (prose, or a variable and ∈), "sum" and "Max"
    (words, or operators with an argument), indices (E_GM, eps^opt) and factorials (k!)."""
    def neighbour(i, step):
        j = i + step
        while 0 <= j < len(toks) and toks[j].kind == "space":
            j += step
        return j if 0 <= j < len(toks) else None

    for i, t in enumerate(toks):
        a, b = neighbour(i, 1), neighbour(i, -1)
        after, before = (toks[a] if a is not None else None), (toks[b] if b is not None else None)
        glued_next = toks[i + 1].value if i + 1 < len(toks) else ""
        if t.kind == "word" and t.value in VERB_LIKE and glued_next not in ("_", "^", "(", "{"):
            t.cls = STOP  # "the geometric sum", "resolve Max and Abs": words, not operators
        if t.kind == "word" and i > 0 and toks[i - 1].value in ("_", "^"):
            t.cls = MATH
        if t.value == "!" and i > 0 and toks[i - 1].kind in ("word", "number") and glued_next != "=":
            t.cls = MATH
        if t.kind == "word" and t.value in ("a", "A"):
            glued_after = glued_next != "" and glued_next in "^_)]}+-*/|'"
            glued_before = i > 0 and toks[i - 1].value in "(^_[{+-*/|"
            then = neighbour(a, 1) if a is not None else None
            listed = (after is not None and after.value == "," and then is not None and toks[then].kind == "word"
                      and len(toks[then].value) == 1)  # "reals a, b"
            symbol_after = after is not None and after.kind in ("rel", "char") and (
                after.cls == MATH or after.value in "+-")
            symbol_before = before is not None and before.kind in ("rel", "char") and before.cls == MATH
            enumeration = 0 < i < len(toks) - 1 and toks[i - 1].value == "(" and glued_next == ")"  # "(a)"
            if (glued_after or glued_before or listed or symbol_after or symbol_before) and not enumeration:
                t.cls = MATH
        elif t.kind == "word" and t.value == "in":
            if (before is not None and before.cls == MATH and after is not None
                    and (after.cls == MATH or after.value in "([{")):
                t.cls = MATH


def _runs(toks: list[_Tok]) -> list[tuple[int, int]]:
    """(start, end) index ranges of the mathematical runs: math and weak tokens around at least one math token,
    trimmed of the punctuation, unmatched brackets and acronyms at their ends, and merged so that no run leaves a
    brace open."""
    runs, i, n = [], 0, len(toks)
    while i < n:
        if toks[i].cls != MATH:
            i += 1
            continue
        start = i
        while start > 0 and toks[start - 1].cls == WEAK:
            start -= 1
        end = i
        while end + 1 < n and toks[end + 1].cls != STOP:
            end += 1
        runs.append([start, end])
        i = end + 1
    merged: list[list[int]] = []
    for run in runs:  # a brace opened in one run and closed in a later one: one run through the prose between
        if merged and _brace_depth(toks, *merged[-1]) > 0:
            merged[-1][1] = run[1]
        else:
            merged.append(run)
    return [r for r in (_trim(toks, s, e) for s, e in merged) if r is not None]


def _brace_depth(toks, start, end) -> int:
    return sum((t.value == "{") - (t.value == "}") for t in toks[start:end + 1])


def _unmatched(toks, start, end) -> set[int]:
    """Indices of brackets in ``toks[start:end+1]`` with no partner (an interval ``[0, 1)`` is matched)."""
    stack, lonely = [], set()
    for k in range(start, end + 1):
        v = toks[k].value
        if v in "([{":
            stack.append(k)
        elif v in ")]}":
            if stack and (toks[stack[-1]].value == "{") == (v == "}"):
                stack.pop()
            else:
                lonely.add(k)
    return lonely | set(stack)


def _trim(toks, start, end) -> Optional[tuple[int, int]]:
    def loose(k, lonely, leading):
        t = toks[k]
        if t.kind == "space" or t.value in ",-" or k in lonely:
            return True
        prime_of = toks[k - 1].kind == "word" or toks[k - 1].value in UNICODE_MATH
        if t.value == "." or (t.value == "'" and (leading or not prime_of)):
            return True  # a quotation mark, not a prime
        indexed = k > 0 and toks[k - 1].value in ("_", "^")
        return t.cls == WEAK and t.kind == "word" and not indexed  # an acronym at the edge stays text

    while start <= end:
        lonely = _unmatched(toks, start, end)
        negative = (toks[start].value == "-" and start + 1 <= end and toks[start + 1].kind != "space"
                    and (start == 0 or toks[start - 1].kind == "space" or toks[start - 1].value in "(["))
        if loose(start, lonely, True) and not negative:
            start += 1
        elif loose(end, lonely, False):
            end -= 1
        else:
            break
    if start > end or not any(toks[k].cls == MATH for k in range(start, end + 1)):
        return None
    return start, end


def _text_tex(value: str) -> str:
    """Prose escaped for text mode, accented letters as TeX accents."""
    out = []
    for ch in value:
        if ch in TEXT_ESCAPES:
            out.append(TEXT_ESCAPES[ch])
        elif ord(ch) < 128:
            out.append(ch)
        elif ch in UNICODE_MATH:
            out.append(f"${UNICODE_MATH[ch]}$")
        else:
            out.append(_accented(ch))
    return "".join(out)


def _accented(ch: str) -> str:
    """A Latin letter with accents as TeX accent commands (é is \\'e); anything else as a visible '?'."""
    parts = unicodedata.normalize("NFD", ch)
    base, marks = parts[0], parts[1:]
    if ord(base) >= 128 or any(m not in ACCENTS for m in marks):
        return "?"
    tex = base
    for mark in marks:
        tex = f"\\{ACCENTS[mark]}{{{tex}}}"
    return tex


def _math_tex(toks: Sequence[_Tok]) -> str:
    """A run of mathematical tokens as LaTeX math: words and symbols translated, ``x~`` as ``\\tilde{x}``,
    ``sqrt(...)`` and ``√x`` as roots, ``^`` and ``_`` with their argument braced."""
    toks = [t for t in toks]
    out: list[str] = []
    i = 0

    def group(k: int) -> tuple[str, int]:
        """The bracketed group starting at k (without its brackets) and the index after it."""
        depth, j = 0, k
        while j < len(toks):
            if toks[j].value in "([{":
                depth += 1
            elif toks[j].value in ")]}":
                depth -= 1
                if depth == 0:
                    return _math_tex(toks[k + 1:j]), j + 1
            j += 1
        return _math_tex(toks[k + 1:]), len(toks)

    def atom(k: int) -> tuple[str, int]:
        """One argument (of ^, _, a root) starting at k: a bracketed group, a word or number, or a symbol."""
        while k < len(toks) and toks[k].kind == "space":
            k += 1
        if k >= len(toks):
            return "", k
        t = toks[k]
        if t.value in "({":
            return group(k)
        if t.value == "-" and k + 1 < len(toks):
            rest, after = atom(k + 1)
            return "-" + rest, after
        return _token_tex(t), k + 1

    while i < len(toks):
        t = toks[i]
        v = t.value
        if t.kind == "space":
            out.append(" ")
            i += 1
        elif v == "^" and i + 1 < len(toks) and toks[i + 1].kind == "space":
            out.append(r"\wedge ")
            i += 1
        elif v in ("^", "_"):
            arg, i = atom(i + 1)
            arg = r"\infty" if arg.strip() == r"\inf" else arg.strip()
            again = out and out[-1].lstrip("{}").startswith(v)  # a_b_c: a second index of a kind needs its own base
            out.append(("{}" if again else "") + f"{v}{{{arg}}}")
        elif v in ("sqrt", "√"):
            arg, i = atom(i + 1)
            out.append(rf"\sqrt{{{arg}}}")
        elif v in ("~", "\u0303"):
            previous = next((k for k in range(len(out) - 1, -1, -1) if out[k].strip()), None)
            if previous is None or (i > 0 and toks[i - 1].kind == "space"):  # X ~ N(0, 1): distributed as
                out.append(r"\sim ")
            else:
                out[previous] = rf"\tilde{{{out[previous].strip()}}}"
            i += 1
        elif v == "*":
            glued = i + 1 < len(toks) and toks[i + 1].kind in ("word", "number") and i > 0 \
                and toks[i - 1].kind != "space"
            out.append(r"\cdot " if glued else "^{*}")
            i += 1
        elif v == "'" and out and out[-1].rstrip().endswith("}"):
            out.append("{}'")  # a prime after a superscript group would be a double superscript
            i += 1
        else:
            tex = _token_tex(t)
            if tex[:1] in "^_" and out and out[-1].lstrip("{}").startswith(tex[0]):
                tex = "{}" + tex  # x*² or x₁₂: a second index of the same kind needs its own base
            out.append(tex)
            i += 1
    tex = "".join(out).strip()
    if tex.count("{") - tex.count("\\{") != tex.count("}") - tex.count("\\}"):
        tex = re.sub(r"(?<!\\)([{}])", r"\\\1", tex)  # a stray brace would break the document: print it
    tex = re.sub(r"(\\[A-Za-z]+) (?![A-Za-z])", r"\1", tex)  # the space that ends a command name, where not needed
    return re.sub(r" {2,}", " ", tex)


def _token_tex(t: _Tok) -> str:
    v = t.value
    if t.kind == "word":
        if v == "in":
            return r"\in "
        if v in MATH_WORDS:
            return MATH_WORDS[v] + " "
        base = v.rstrip("0123456789")
        if base != v and base in MATH_WORDS:
            return f"{MATH_WORDS[base]}_{{{v[len(base):]}}}"
        if len(v) == 1 or (len(v) == 2 and v[0] == "d"):
            return v
        return rf"\mathrm{{{v}}}"
    if t.kind == "rel":
        return ASCII_RELATIONS[v] + " "
    if v in UNICODE_MATH:
        tex = UNICODE_MATH[v]
        return tex + " " if tex.startswith("\\") and tex[-1].isalpha() else tex
    if v in "%#&$":
        return "\\" + v
    if v == "\\":
        return r"\backslash "
    if v == "'":
        return "'"
    if ord(v[0]) >= 128 and len(v) == 1:
        return rf"\text{{{_accented(v)}}}"
    return v


def text(s: str) -> str:
    """Plain Unicode/ASCII text with mathematics in it, as LaTeX text mode (see the module docstring).

    >>> text("(gamma, epsilon)-Dobrushin implies gamma-Dobrushin")
    '$(\\\\gamma, \\\\varepsilon)$-Dobrushin implies $\\\\gamma$-Dobrushin'
    >>> text("for any two reals a, b and a kernel K~")
    'for any two reals $a, b$ and a kernel $\\\\tilde{K}$'
    >>> text("already $x^2$ here")
    'already $x^2$ here'
    """
    if not s:
        return ""
    toks = _tokens(s)
    _classify(toks)
    out, k = [], 0
    for start, end in _runs(toks):
        out.extend(_prose(toks[k:start]))
        out.append(f"${_math_tex(toks[start:end + 1])}$")
        k = end + 1
    out.extend(_prose(toks[k:]))
    return "".join(out)


def _prose(toks: Sequence[_Tok]) -> list[str]:
    out = []
    for i, t in enumerate(toks):
        if t.kind == "tex":
            out.append(module_latex(t.value))
        elif t.kind == "code":
            out.append(r"\texttt{" + _text_tex(t.value.strip("`")).replace(".", ".\\allowbreak{}") + "}")
        elif t.kind == "char" and t.value == "'" and (i == 0 or toks[i - 1].kind == "space"
                                                       or toks[i - 1].value in "(["):
            out.append("`")
        elif t.kind == "char" and t.value == '"':
            out.append("``" if i == 0 or toks[i - 1].kind == "space" else "''")
        else:
            out.append(_text_tex(t.value))
    return out


# --- widths and line breaking --------------------------------------------------------------------------------------

DISPLAY_WIDTH = 64.0
"""How wide a display may be, in the units of :func:`width` (about the width of a digit in 10 pt math)."""

_CMD = re.compile(r"\\([A-Za-z]+|.)")


def width(tex: str) -> float:
    r"""A rough width of LaTeX math in digit widths: fractions as their wider part, indices at 70 %, spacing and
    ``\left``/``\right`` as nothing. Only used to decide where to break a display.

    >>> width(r"\frac{a + b}{c}") < width("a + b + c")
    True
    """
    total, i, n = 0.0, 0, len(tex)

    def arg(k):
        """The braced group (or single token) at k: its text and the index after it."""
        while k < n and tex[k] == " ":
            k += 1
        if k < n and tex[k] == "{":
            depth, j = 0, k
            while j < n:
                depth += (tex[j] == "{") - (tex[j] == "}")
                if depth == 0:
                    return tex[k + 1:j], j + 1
                j += 1
            return tex[k + 1:], n
        m = _CMD.match(tex, k)
        if m:
            return m.group(), m.end()
        return tex[k:k + 1], k + 1

    while i < n:
        ch = tex[i]
        if ch == "\\":
            m = _CMD.match(tex, i)
            name, i = m.group(1), m.end()
            if name in ("frac", "dfrac", "tfrac", "binom"):
                a, i = arg(i)
                b, i = arg(i)
                total += max(width(a), width(b)) * (0.75 if name == "tfrac" else 1) + 0.5
            elif name in ("left", "right", "middle", "big", "Big", "bigg", "Bigg"):
                continue
            elif name in (",", ";", ":", "!", " ", "limits", "nolimits", "displaystyle", "quad", "qquad"):
                total += {"quad": 2, "qquad": 4, ";": 0.5, ",": 0.3}.get(name, 0)
            elif name in ("mathrm", "text", "operatorname", "mathcal", "mathbb", "mathbf", "tilde", "hat",
                          "bar", "overline", "sqrt", "textrm", "mathit"):
                a, i = arg(i)
                total += width(a) * (1.1 if name in ("text", "textrm") else 1) + (1 if name == "sqrt" else 0)
            elif name in ("log", "exp", "max", "min", "sup", "inf", "lim", "tanh", "cosh", "sinh", "ln", "Pr"):
                total += len(name) * 0.9 + 0.3
            elif name in ("le", "ge", "leq", "geq", "ne", "to", "in", "sim", "approx", "equiv", "Rightarrow",
                          "iff"):
                total += 2.2
            else:
                total += 1.1
        elif ch in "^_":
            a, i = arg(i + 1)
            total += 0.7 * width(a)
        elif ch in "{} ":
            i += 1
        elif ch in "=<>+-":
            total += 2.2
            i += 1
        elif ch in ",;":
            total += 0.6
            i += 1
        else:
            total += 1.0
            i += 1
    return total


def _terms(expr: sp.Basic, printer: PaperLatexPrinter) -> list[str]:
    """The printed terms of a sum, each with its sign (``"+ x"``, ``"- y"``; the first bare), as SymPy prints them."""
    terms = printer._as_ordered_terms(expr, order=None)
    out = []
    for k, term in enumerate(terms):
        sign = ""
        if k and term.could_extract_minus_sign():
            sign, term = "- ", -term
        elif k:
            sign = "+ "
        tex = printer._print(term)
        if printer._needs_add_brackets(term):
            tex = rf"\left({tex}\right)"
        out.append(sign + tex)
    return out


def _pieces(expr: sp.Basic, printer: PaperLatexPrinter, room: float) -> list[str]:
    """``expr`` as lines of at most ``room`` where it can be broken: a sum between its terms, a product of a long
    sum by a factor as ``factor \\cdot (`` ... ``)``. Something that cannot be broken is one (wide) line."""
    tex = printer.doprint(expr)
    if width(tex) <= room:
        return [tex]
    if isinstance(expr, sp.Add):
        return _pack(_terms(expr, printer), room)
    if isinstance(expr, sp.Mul):
        coeff, factors = expr.as_coeff_mul()
        sums = [f for f in factors if isinstance(f, sp.Add)]
        if sums:
            inner = max(sums, key=lambda f: len(f.args))
            rest = sp.Mul(coeff, *[f for f in factors if f is not inner], evaluate=False) if len(factors) > 1 \
                or coeff != 1 else sp.Integer(1)
            head = "" if rest == 1 else ("-" if rest == -1 else printer.doprint(rest) + r" \cdot ")
            lines = _pack(_terms(inner, printer), room - 2)
            lines[0] = head + r"\left(" + lines[0]
            for k in range(len(lines) - 1):
                lines[k] += r" \right."
                lines[k + 1] = r"\left. " + lines[k + 1]
            lines[-1] += r"\right)"
            return lines
    return [tex]


def _pack(terms: list[str], room: float) -> list[str]:
    lines = [terms[0]]
    for term in terms[1:]:
        if width(lines[-1] + " " + term) <= room:
            lines[-1] += " " + term
        else:
            lines.append(term)
    return lines


RELATIONS = {"=": "=", "==": "=", "<=": r"\le", ">=": r"\ge", "<": "<", ">": ">", "!=": r"\ne"}


def fit(tex: str, share: float = 1.0) -> str:
    r"""Math that TeX shrinks to ``share`` of the line if, measured by TeX itself, it is wider: the last resort
    for a piece that cannot be broken (one long fraction), so that no display runs into the margin.

    Math that is clearly narrow enough (by :func:`width`) is left alone, so that most output is plain amsmath.

    >>> fit("x", 0.5)
    'x'
    >>> fit(r"\frac{a}{b} + " * 30, 0.5)[:25]
    '\\symdpfit{0.5\\linewidth}{'
    """
    if width(tex) <= share * DISPLAY_WIDTH * FIT_MARGIN:
        return tex
    return rf"\symdpfit{{{share:.3g}\linewidth}}{{{tex}}}"


FIT_MARGIN = 0.8
"""Below this share of its room (by the estimate of :func:`width`) a piece is not wrapped by :func:`fit`."""


def _relation_rows(lhs_tex: str, rel_tex: str, rhs: sp.Basic, printer: PaperLatexPrinter,
                   room: float) -> list[str]:
    """Rows of an ``align*`` for ``lhs rel rhs`` (the ``&`` before the relation), broken to fit ``room``."""
    if width(lhs_tex) > room * 0.4:  # a long left side gets its own row
        lines = _pieces(rhs, printer, room - 8)
        rows = [f"&{fit(lhs_tex)}", rf"&\quad {rel_tex} {fit(lines[0], 0.85)}"]
        rest = 0.8
    else:
        share = (room - width(lhs_tex) - 3) / room
        lines = _pieces(rhs, printer, room * share)
        rows = [f"{lhs_tex} &{rel_tex} {fit(lines[0], share - 0.05)}"]
        rest = share - 0.1
    rows += [rf"&\qquad {fit(line, rest)}" for line in lines[1:]]
    return rows


def display(statement: sp.Basic, *, suffix: str = "", room: float = DISPLAY_WIDTH) -> str:
    r"""A SymPy relation (or expression) as display math: ``\[ … \]`` when it fits the page, else an ``align*``
    broken at the relation and between the terms of its right side (a piece that still does not fit is shrunk to
    the line by :func:`fit`).

    >>> x, y = sp.symbols("x y")
    >>> display(sp.Le(x, 2 * y), suffix=".")
    '\\[\n  x \\leq 2 y.\n\\]'
    >>> print(display(sp.Le(x, sum(sp.Symbol(f"y_{k}") ** k for k in range(40)))))  # doctest: +ELLIPSIS
    \begin{align*}
    x &\le ... \\
    &\qquad ...
    \end{align*}
    """
    printer = PaperLatexPrinter()
    tex = printer.doprint(statement)
    if width(tex + suffix) <= room:
        return f"\\[\n  {fit(tex + suffix)}\n\\]"
    if isinstance(statement, sp.core.relational.Relational):
        rel = RELATIONS.get(statement.rel_op, r"\le")
        rows = _relation_rows(printer.doprint(statement.lhs), rel, statement.rhs, printer, room)
    else:
        lines = _pieces(statement, printer, room)
        rows = [f"&{fit(lines[0])}"] + [rf"&\qquad {fit(line, 0.9)}" for line in lines[1:]]
    if suffix:
        rows[-1] = rows[-1][:-1] + suffix + "}" if rows[-1].endswith("}") else rows[-1] + suffix
    return "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}"


def _top_level_text(tex: str) -> list[tuple[str, str]]:
    r"""LaTeX math split at its top-level ``\text{…}`` and ``,\ `` separators: ``("math" | "text", piece)`` pairs,
    so that a long hypothesis can be set as a paragraph that breaks between its parts."""
    parts: list[tuple[str, str]] = []
    i, n, depth, start = 0, len(tex), 0, 0

    def emit(kind, piece):
        if kind == "math":  # spacing at the edges of a math piece becomes a space of the text
            lead = re.match(r"(?:\\[ ,;]|\s)*", piece).group()
            trail = re.search(r"(?:\\[ ,;]|\s)*$", piece[len(lead):]).group()
            core = piece[len(lead):len(piece) - len(trail)]
            if core:
                parts.extend([("text", " ")] * bool(lead) + [("math", core)] + [("text", " ")] * bool(trail))
        elif piece:
            parts.append((kind, piece))

    while i < n:
        ch = tex[i]
        if ch == "\\" and depth == 0 and tex.startswith(r"\text{", i):
            emit("math", tex[start:i])
            j, level = i + 6, 1
            while j < n and level:
                level += (tex[j] == "{") - (tex[j] == "}")
                j += 1
            emit("text", tex[i + 6:j - 1])
            i = start = j
            continue
        if ch == "," and depth == 0:  # a list of hypotheses: break between them
            emit("math", tex[start:i])
            parts.append(("text", ", "))
            i = start = i + 1
            continue
        if tex.startswith(r"\left", i) or tex.startswith(r"\right", i):
            depth += 1 if tex.startswith(r"\left", i) else -1
            i += 5 if tex.startswith(r"\left", i) else 6
            i += 1 if i < n and tex[i] == "\\" else 0  # \left\{ is one delimiter
            i += 1
            continue
        if ch == "\\":
            i += 2
            continue
        depth += (ch in "{([") - (ch in "})]")
        i += 1
    emit("math", tex[start:])
    return parts


def inline(tex: str) -> str:
    r"""Hand-written module LaTeX (math mode, with ``\text``) as text with ``$…$`` pieces, which TeX can break
    between.

    >>> inline(r"\mu, \nu \text{ on } n \le 5 \text{ inputs},\ K \text{ a kernel}")
    '$\\mu$, $\\nu$ on $n \\le 5$ inputs, $K$ a kernel'
    """
    out = []
    for kind, piece in _top_level_text(module_latex(tex)):
        out.append(piece if kind == "text" else f"${piece}$")
    return re.sub(r"\s+,", ",", re.sub(r" {2,}", " ", "".join(out))).strip()


def display_tex(tex: str, room: float = DISPLAY_WIDTH) -> str:
    """Hand-written LaTeX math displayed when it fits, else set as an indented paragraph that can break."""
    tex = module_latex(tex)
    if width(tex) <= room:
        return rf"\[ {fit(tex)} \]"
    return r"\begin{quote}" + inline(tex) + r"\end{quote}"


# --- theorems ------------------------------------------------------------------------------------------------------

def _value_tex(value: Any) -> str:
    r"""A drawn value as math: integers as they are, other numbers to 6 significant digits (``1.5 \cdot 10^{-7}``).

    >>> _value_tex(1.5e-07), _value_tex(3), _value_tex("0.25")
    ('1.5 \\cdot 10^{-7}', '3', '0.25')
    """
    if isinstance(value, (bool, int)):
        return str(value)
    try:
        number = float(value)
    except (TypeError, ValueError):
        return r"\text{" + _text_tex(str(value)) + "}"
    mantissa, _, exponent = f"{number:.6g}".partition("e")
    return mantissa + (rf" \cdot 10^{{{int(exponent)}}}" if exponent else "")


def _short(obj: Any) -> Any:
    """A structure with its long numbers cut to 6 significant digits, for reading."""
    if isinstance(obj, dict):
        return {k: _short(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_short(v) for v in obj]
    if isinstance(obj, float):
        return float(f"{obj:.6g}")
    if isinstance(obj, str):
        try:
            return float(f"{float(obj):.6g}")
        except ValueError:
            return obj
    return obj


def point_tex(point: dict) -> str:
    r"""Parameter values as text: ``$\varepsilon = 1.09861$``, ...; a drawn structure as compact JSON text.

    >>> point_tex({"epsilon": 1.0986122886681098, "sigma_1": 1})
    '$\\varepsilon = 1.09861$, $\\sigma_{1} = 1$'
    """
    parts = []
    for name, value in point.items():
        if name == "structure":
            continue
        parts.append(f"${latex(sp.Symbol(name))} = {_value_tex(value)}$")
    if "structure" in point:
        blob = json.dumps(_short(point["structure"]), separators=(", ", ": "))
        if len(blob) > 400:
            blob = blob[:400] + " …"
        breakable = _text_tex(blob).replace(", ", r", \allowbreak ").replace(": ", r": \allowbreak ")
        parts.append("structure " + r"{\small\ttfamily " + breakable + "}")
    return ", ".join(parts)


def hypotheses(theorem) -> list[str]:
    """The hypotheses of a theorem as LaTeX math: each parameter's domain, then the side conditions."""
    printer = PaperLatexPrinter()
    hyps = [rf"{printer.doprint(p.symbol)} \in {printer.doprint(p.domain)}" for p in theorem.parameters]
    hyps += [printer.doprint(c) for c in theorem.conditions]
    return hyps


def _label(ident: str) -> str:
    return "thm:" + re.sub(r"[^A-Za-z0-9.:-]", "-", ident)


def _sentence_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _verdict_tex(theorem, report) -> str:
    verdict = report.verdict
    if theorem.erratum is not None:
        summary = ("refuted as printed" if verdict == "violated" else f"{verdict} (the erratum was NOT reproduced)")
    elif theorem.evidence == "identity":
        summary = "holds (identity: the derivation is checked exactly)"
    elif theorem.evidence == "symbolic":
        summary = "symbolic only, not checked"
    elif verdict == "holds" and report.tight:
        summary = f"holds, tight: equality at {report.tight} of {report.examples} draws"
    else:
        summary = f"{verdict} after {report.examples} draws" if report.examples else verdict
    details = []
    if report.examples:
        details.append(f"{report.dps} digits, {report.seconds:.2g} s")
    if getattr(report, "worst_ratio", None) is not None and verdict == "holds" and not report.tight:
        details.append(f"worst ratio quantity/bound {float(report.worst_ratio):.4g}")
    if report.counterexample and theorem.erratum is None:
        details.append("counterexample " + point_tex(dict(report.counterexample)))
    return r"\par\noindent\textit{Verdict:} " + _text_tex(summary) + (
        " (" + "; ".join(details) + ")" if details else "") + "."


def _id_tex(ident: str) -> str:
    """A theorem ID in typewriter type, breakable after its dots."""
    return r"\texttt{" + _text_tex(ident).replace(".", r".\allowbreak{}") + "}"


def _formula(written: str) -> str:
    """A formula of an erratum as the module writes it: LaTeX (displayed) or plain text (converted, as a quote)."""
    if "\\" in written:
        return display_tex(written)
    return r"\begin{quote}" + text(written) + r"\end{quote}"


def theorem_block(theorem, report=None, *, corrected_label: Optional[str] = None, notes: bool = True) -> str:
    r"""One theorem as a LaTeX environment: title and citation, hypotheses, the statement in display math,
    tightness, evidence, how the witness checks it (the notes, unless ``notes=False``), and the verdict when a
    :class:`~symdp.verify.Report` is given.

    A theorem whose statement as printed is wrong is a ``erratum`` environment: what was printed, the statement
    refuted with its counterexample, and the correction (a reference to the corrected theorem when
    ``corrected_label`` is given, as :func:`document` does). The environments are defined by :data:`PREAMBLE`.
    """
    erratum = theorem.erratum
    env = "erratum" if erratum is not None else "theorem"
    title = text(theorem.title)
    # the title opens the body, not the environment's optional argument: amsthm sets that in an unbreakable box
    lines = [rf"\begin{{{env}}}\label{{{_label(theorem.id)}}}\textbf{{{title}.}}",
             rf"\textit{{{text(cite(theorem.source))}.}} {_id_tex(theorem.id)}\par"]
    if erratum is not None:
        where = text(erratum.location)
        kind = {"erratum": "As printed", "conjecture": "Conjectured", "sharpness": "Relaxed on purpose"}[erratum.kind]
        lines.append(rf"\noindent\textit{{{kind}}} ({where}):")
        lines.append(_formula(erratum.printed))
        lines.append(r"\noindent This is encoded as follows, and refuted.")
    hyps = hypotheses(theorem)
    if hyps:
        lines.append("Let " + _sentence_list([f"${h}$" for h in hyps]) + ".")
    if theorem.structure_latex:
        lines.append(rf"Checked on {inline(theorem.structure_latex)}.")
    lines.append(("Then" if hyps or theorem.structure_latex else "") )
    lines.append(display(theorem.statement, suffix="" if theorem.quantity_latex else "."))
    if theorem.quantity_latex:
        lines.append(rf"where ${latex(theorem.statement.lhs)} = {module_latex(theorem.quantity_latex)}$.")
    if theorem.tight_everywhere:
        lines.append("Equality holds for every admissible choice of the parameters.")
    elif theorem.tight_at:
        lines.append("The bound is attained, at " + "; ".join(point_tex(dict(p)) for p in theorem.tight_at) + ".")
    if theorem.symbolic_only:
        lines.append(r"\par\noindent\textit{Not checked numerically:} " + text(theorem.symbolic_only).rstrip(".")
                     + ".")
    if theorem.evidence in ("closed-form",) and theorem.evidence_note:
        lines.append(r"\par\noindent\textit{Evidence:} closed form against closed form: "
                     + text(theorem.evidence_note).rstrip(".") + ".")
    if erratum is not None:
        lines.append(r"\par\noindent\textit{Counterexample:} " + (point_tex(dict(erratum.counterexample)) or "none")
                     + ".")
        corrected = _formula(erratum.corrected)
        see = rf" (Theorem~\ref{{{corrected_label}}})" if corrected_label else ""
        lines.append(rf"\par\noindent\textit{{Corrected}}{see}:" + corrected)
        if erratum.note:
            lines.append(r"\noindent " + text(erratum.note))
    if notes and theorem.notes:
        lines.append(r"\par\noindent{\small\textit{Check:} " + text(theorem.notes) + "}")
    if report is not None:
        lines.append(_verdict_tex(theorem, report))
    lines.append(rf"\end{{{env}}}")
    return "\n".join(line for line in lines if line)


# --- derivations ---------------------------------------------------------------------------------------------------

STEP_RELATIONS = {"=": "=", "<=": r"\le", ">=": r"\ge"}
REASON_WIDTH = 24.0
"""Reasons wider than this (in :func:`width` units) go on a row of their own under their step."""


def visible_steps(derivation) -> list[tuple[str, str, str]]:
    """``(relation, expression LaTeX, reason)`` of the steps a reader needs: a step that prints exactly as the
    expression before it (``a = a``, a regrouping SymPy undoes in print) is dropped, its reason joined to the next
    step's (or to the previous one's at the end)."""
    printer = PaperLatexPrinter()
    previous = printer.doprint(derivation.start)
    steps: list[list[str]] = []
    pending: list[str] = []
    for step in derivation.steps:
        tex = printer.doprint(step.expr)
        if tex == previous and step.relation == "=":
            pending.append(step.reason)
            continue
        steps.append([step.relation, tex, "; ".join(pending + [step.reason])])
        pending = []
        previous = tex
    if pending:
        if steps:
            steps[-1][2] = "; ".join([steps[-1][2]] + pending)
        else:  # every step was trivial: the start alone, with the reasons (relation "")
            steps.append(["", previous, "; ".join(pending)])
    return [tuple(s) for s in steps]


def derivation_align(derivation, room: float = DISPLAY_WIDTH) -> str:
    r"""The chain as an ``align*``: the start, then one row per visible step with its reason as text beside it, or
    under it (``\intertext``) when it does not fit; a step too wide for the page is broken between its terms.

    >>> x = sp.Symbol("x")
    >>> from symdp.derivation import Derivation
    >>> print(derivation_align(Derivation("d", (x + 1)**2).step(x**2 + 2*x + 1, "expand")))
    \begin{align*}
    \left(x + 1\right)^{2} &= x^{2} + 2 x + 1 && \text{expand}
    \end{align*}
    """
    printer = PaperLatexPrinter()
    start = printer.doprint(derivation.start)
    steps = visible_steps(derivation)
    if len(steps) == 1 and steps[0][0] == "":  # nothing to chain: the expression and why it is what it is
        return ("\\begin{align*}\n" + rf"&{fit(start, 0.6)} && \text{{{text(steps[0][2])}}}" + "\n\\end{align*}")
    exprs = {printer.doprint(s.expr): s.expr for s in derivation.steps}
    start_alone = width(start) > room * 0.3
    lead = 2.0 if start_alone else room * 0.3 + 2  # a start beside the chain is shrunk to 0.3 of the line
    share = (room - lead - 3) / room
    broken = [_pieces(exprs[tex], printer, room * share) if width(tex) > room * share else [tex]
              for _, tex, _ in steps]
    widest = max([width(line) for lines in broken for line in lines] + [width(start) if start_alone else 0.0])
    rows: list[str] = [rf"&{fit(start, 0.95)}"] if start_alone else []
    for k, ((relation, _, reason), lines) in enumerate(zip(steps, broken)):
        left = fit(start, 0.3) if (k == 0 and not start_alone) else ""
        head = f"{left} &{STEP_RELATIONS[relation]} {fit(lines[0], share - 0.02)}"
        rest = [rf"&\qquad {fit(line, share - 0.08)}" for line in lines[1:]]
        reason_tex = text(reason)
        reason_width = width(reason_tex.replace("$", "")) * 0.8
        beside = lead + min(widest, room * 0.95) + 4 + reason_width <= room
        if beside and reason_tex:
            if rest:
                rest[-1] += rf" && \text{{{reason_tex}}}"
            else:
                head += rf" && \text{{{reason_tex}}}"
            rows.extend([head] + rest)
        else:
            rows.extend([head] + rest)
            if reason_tex:
                rows[-1] += "\n" + r"\intertext{\small\hfill " + reason_tex + "}"
    return "\\begin{align*}\n" + _fix_intertext(rows) + "\n\\end{align*}"


def _fix_intertext(rows: list[str]) -> str:
    r"""Join rows with ``\\``; an ``\intertext`` follows the ``\\`` of its row and is the last thing before the next
    row (it may not end the environment: a trailing one goes after a final empty row)."""
    out = []
    for k, row in enumerate(rows):
        main, _, inter = row.partition("\n\\intertext")
        last = k == len(rows) - 1
        if inter and last:
            out.append(main + r" \\" + "\n\\intertext" + inter)
            out.append("")  # amsmath needs a row after \intertext
        elif inter:
            out.append(main + r" \\" + "\n\\intertext" + inter)
        else:
            out.append(main + ("" if last else r" \\"))
    return "\n".join(out).rstrip()


def derivation_block(derivation) -> str:
    """A derivation as a titled block: the title as text, its source and assumptions, then the checked chain."""
    head = [rf"\begin{{derivation}}\textbf{{{text(derivation.title)}.}}"]
    meta = []
    if derivation.source:
        meta.append(r"\textit{Source:} " + text(cite_seeds(derivation.source)).rstrip("."))
    if derivation.assumptions:
        meta.append(r"\textit{Assuming:} " + text(derivation.assumptions).rstrip("."))
    if meta:
        head.append(". ".join(meta) + ".")
    return "\n".join(head + [derivation_align(derivation), r"\end{derivation}"])


# --- the document --------------------------------------------------------------------------------------------------

PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage[a4paper,margin=2.2cm]{geometry}
\usepackage{amsmath,amssymb,amsthm,graphicx}
\allowdisplaybreaks
\AtBeginDocument{\raggedright\sloppy}% titles carry unbreakable inline math: ragged lines, not overfull ones
\newsavebox{\symdpbox}
\newlength{\symdpmax}
% \symdpfit{max width}{math}: the math in display style, shrunk to the width if TeX finds it wider
\newcommand{\symdpfit}[2]{\setlength{\symdpmax}{#1}\sbox{\symdpbox}{$\displaystyle #2$}%
  \ifdim\wd\symdpbox>\symdpmax\resizebox{\symdpmax}{!}{\usebox{\symdpbox}}\else\usebox{\symdpbox}\fi}
\emergencystretch=3em
\newtheorem{theorem}{Theorem}
\theoremstyle{definition}
\newtheorem{erratum}[theorem]{Erratum}
\newtheorem{derivation}{Derivation}
"""
"""What :func:`document` needs: amsmath, amssymb, amsthm, graphicx (all in Debian's texlive-latex-base), the
``theorem``, ``erratum`` and ``derivation`` environments and the ``\\symdpfit`` macro of :func:`fit`. A document of
one's own that inputs the body (``preamble=False``) needs the same definitions."""


def document(theorems: Iterable = (), *, derivations: Iterable = (), preamble: bool = True,
             reports: Optional[dict] = None, notes: bool = True, title: str = "symdp: the catalogue") -> str:
    r"""A complete LaTeX article: every theorem (errata beside their corrections, cross-referenced), then the
    derivations grouped by paper. ``derivations`` holds :class:`~symdp.derivation.Derivation` objects or
    ``(paper, derivation)`` pairs (as ``proofs.all_derivations`` gives them); ``reports`` maps theorem IDs to
    reports, whose verdicts are then shown; ``notes=False`` leaves out how each theorem is checked. Without
    ``preamble`` only the body is returned, to ``\input`` in a
    document that defines the environments of :data:`PREAMBLE`.

    >>> doc = document([], derivations=[])
    >>> doc.startswith(r"\documentclass") and doc.rstrip().endswith(r"\end{document}")
    True
    """
    theorems = list(theorems)
    present = {t.id for t in theorems}
    body: list[str] = []
    cited: list = []
    for t in theorems:
        source_paper = paper_of(t.source)
        if source_paper not in cited:  # a section per paper, in the order the theorems come
            cited.append(source_paper)
            heading = "Theorems" if source_paper is None else f"{source_paper.short}: {source_paper.title}"
            body.append(rf"\section*{{{text(heading)}}}")
        corrected = t.erratum.corrected_id if t.erratum is not None else None
        label = _label(corrected) if corrected in present else None
        body.append(theorem_block(t, (reports or {}).get(t.id), corrected_label=label, notes=notes))
    heading = None
    for item in derivations:
        group, d = item if isinstance(item, tuple) else ("", item)
        if group != heading:  # a section per paper ("" for derivations given without their paper)
            heading = group
            source_paper = PAPERS.get(group)
            if source_paper is not None and source_paper not in cited:
                cited.append(source_paper)
            name = source_paper.short if source_paper is not None else group
            body.append(r"\section*{Derivations" + (f": {text(name)}" if name else "") + "}")
        body.append(derivation_block(d))
    if any(cited):
        items = "\n".join(rf"\bibitem[{p.short}]{{{p.key}}} {reference(p)}" for p in cited if p)
        widest = max((p.short for p in cited if p), key=len)
        body.append(f"\\begin{{thebibliography}}{{{widest}}}\n" + items + "\n\\end{thebibliography}")
    content = "\n\n".join(body) + "\n"
    if not preamble:
        return content
    return (PREAMBLE + "\\title{" + text(title) + "}\\date{}\n\\begin{document}\n\\maketitle\n\n" + content
            + "\n\\end{document}\n")
