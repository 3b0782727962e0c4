r"""LaTeX for theorems, errata and derivations: a document that compiles with pdflatex, as the papers write it.

Three pieces, one concern each:

* :class:`PaperLatexPrinter` prints SymPy expressions as the papers do: ``\varepsilon`` (not ``\epsilon``),
  ``\varphi``, primes on any name (``epsilon'`` is ``\varepsilon'``), multi-letter subscripts upright
  (``E_GM`` is ``E_{\mathrm{GM}}``).
* The catalogue's prose (titles, notes, errata, evidence notes, derivation titles and step reasons) is written
  LaTeX-ready: ordinary text with every piece of mathematics in ``$…$``, accents as TeX accents (``R\'enyi``),
  theorem IDs as ``\symdpid{dwork.lem3.10}`` and code as ``\symdpcode{loss\_standard}``. It goes into the
  document as written, once :func:`check_prose` has checked that it is well-formed; :func:`plain` renders it for a
  terminal.
* :func:`theorem_block`, :func:`derivation_block` and :func:`document` lay them out: display math that is broken
  at relations and between terms when it is too wide for the page, an ``erratum`` environment for a statement as
  printed that is false (with its counterexample), derivations as aligned chains with their reasons as text. The
  environments and macros they use are those of the LaTeX package :func:`package` (``symdp.sty``).

>>> import sympy as sp
>>> latex(sp.Symbol("epsilon'") + sp.Symbol("E_GM"))
"E_{\\mathrm{GM}} + {\\varepsilon'}"
>>> check_prose(r"KL $\le \tau^2/2$ for 50\% of the draws")
'KL $\\le \\tau^2/2$ for 50\\% of the draws'
>>> plain(r"as $\varepsilon \to \infty$ (\symdpid{balle19.def.hs.limit})")
'as ε → ∞ (balle19.def.hs.limit)'
"""

from __future__ import annotations

import math
import re
import unicodedata
from importlib import resources
from typing import Any, Iterable, Optional

import sympy as sp
from sympy.printing.conventions import split_super_sub
from sympy.printing.latex import LatexPrinter, translate

from symdp.citations import PAPERS, cite, cite_seeds, paper_of, reference
from symdp.errors import SymdpError
from symdp.expressions import HockeyStick

# --- the printer ---------------------------------------------------------------------------------------------------

PAPER_NAMES = {"epsilon": r"\varepsilon", "eps": r"\varepsilon", "phi": r"\varphi"}
"""Symbol names the papers write with the variant glyph."""

ASCII_NAMES = {"delta_p": "delta'"}
"""Symbol names that are ASCII stand-ins for the papers' (:data:`symdp.symbols.delta_p` is Dwork and Rothblum's
δ')."""


class PaperLatexPrinter(LatexPrinter):
    r"""SymPy's LaTeX printer with the papers' conventions for symbol names.

    >>> PaperLatexPrinter().doprint(sp.Symbol("x'_1") + sp.Symbol("r_s'") + sp.Symbol("epsilon_0"))
    "\\varepsilon_{0} + {r_{s'}} + {x'_{1}}"
    >>> PaperLatexPrinter().doprint(sp.Symbol("delta_p"))
    "{\\delta'}"
    """

    def _deal_with_super_sub(self, string: str, style: str = "plain") -> str:
        if "{" in string or self._settings.get("disable_split_super_sub"):
            return super()._deal_with_super_sub(string, style=style)
        name, supers, subs = split_super_sub(ASCII_NAMES.get(string, string))
        tex = _name_tex(name)
        if style == "bold":
            tex = rf"\mathbf{{{tex}}}"
        if supers:
            tex += "^{%s}" % " ".join(_name_tex(s, index=True) for s in supers)
        if subs:
            tex += "_{%s}" % " ".join(_name_tex(s, index=True) for s in subs)
        return "{%s}" % tex if "'" in tex else tex  # a prime is a superscript: x'^2 would be a double one

    def _print_ExpBase(self, expr, exp=None) -> str:
        r"""``e^{x}`` with short fractions folded in the exponent (``e^{\lambda^{2} \tau^{2}/2}``), and
        ``\exp\left(x\right)`` when ``x`` is too wide to read at superscript size (:data:`EXPONENT_WIDTH`)."""
        fold, self._settings["fold_short_frac"] = self._settings["fold_short_frac"], True
        try:
            folded = self._print(expr.args[0])
        finally:
            self._settings["fold_short_frac"] = fold
        if width(folded) > EXPONENT_WIDTH:
            return self._do_exponent(rf"\exp\left({self._print(expr.args[0])}\right)", exp)
        return self._do_exponent(f"e^{{{folded}}}", exp)


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
    r"""LaTeX math written by hand in a module (``quantity_latex``), with the papers' ``\varepsilon``.

    >>> module_latex(r"e^{\epsilon} \le \epsilon_0")
    'e^{\\varepsilon} \\le \\varepsilon_0'
    """
    return re.sub(r"\\epsilon(?![A-Za-z])", r"\\varepsilon", tex)


EXPONENT_WIDTH = 12.0
"""An exponent of ``e`` wider than this (in :func:`width` units) is printed as ``\\exp(…)`` at full size."""

LEVEL_WIDTH = 6.0
"""A hockey-stick level ``e^ε`` whose ``ε`` prints wider than this (in :func:`width` units) is named in the display
and stated beside it: in the head's subscript it would be set at sub-subscript size."""


def named_levels(statement: sp.Basic) -> tuple[sp.Basic, list[tuple[sp.Symbol, sp.Basic]]]:
    r"""The statement with every long hockey-stick level replaced by a name (``ε'``, or more primes where ``ε'`` is
    taken), and the ``(name, level)`` pairs: ``D_{e^{ε'}}(U‖V) ≤ δ`` where ``ε' = …`` reads at full size.

    >>> eps, k = sp.symbols("epsilon k")
    >>> U, V = sp.symbols("U V")
    >>> named, levels = named_levels(sp.Le(HockeyStick(U, V, k * eps * sp.tanh(eps / 2) + sp.sqrt(k)), 1))
    >>> print(latex(named))
    D_{e^{{\varepsilon'}}}\left(U \,\middle\|\, V\right) \leq 1
    >>> levels
    [(epsilon', epsilon*k*tanh(epsilon/2) + sqrt(k))]
    """
    taken = {str(s) for s in statement.free_symbols}
    levels: list[tuple[sp.Symbol, sp.Basic]] = []
    replace = {}
    for head in sorted(statement.atoms(HockeyStick), key=sp.default_sort_key):
        level = head.args[2]
        if width(latex(level)) <= LEVEL_WIDTH:
            continue
        named = next((s for s, value in levels if value == level), None)
        if named is None:
            name = "epsilon'"
            while name in taken:
                name += "'"
            taken.add(name)
            named = sp.Symbol(name)
            levels.append((named, level))
        replace[head] = HockeyStick(head.args[0], head.args[1], named)
    return statement.xreplace(replace), levels


# --- prose ---------------------------------------------------------------------------------------------------------

class ProseError(SymdpError):
    """Catalogue prose that is not LaTeX-ready: the message names the text, the problem and where it is."""


TEXT_SPECIALS = "%&#_^~"
"""Characters that must be escaped (``\\%``) in text; in ``$…$`` only ``%`` and ``#`` are errors."""


def check_prose(text: str, where: str = "prose") -> str:
    r"""``text`` itself if it is LaTeX-ready prose, else a :class:`ProseError` naming ``where``, the problem and its
    column: every character ASCII (accents as ``\'e``, mathematics as ``$\varepsilon$``), ``$`` balanced (``\$`` is a
    dollar sign), no unescaped ``%``, ``&``, ``#``, ``_``, ``^``, ``~`` outside mathematics and no ``%`` or ``#``
    inside it, braces balanced in the text and in every piece of mathematics.

    >>> check_prose(r"$\tau_1 \le 1/3$ for 50\% of the pairs (\symdpcode{tilted\_triples})")
    '$\\tau_1 \\le 1/3$ for 50\\% of the pairs (\\symdpcode{tilted\\_triples})'
    >>> check_prose("tau_1 <= 1/3", "dwork.lem4.2: notes")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    symdp.latex.ProseError: dwork.lem4.2: notes: '_' outside $…$ (escape it as \_, ...) at column 4: 'tau_1 <= 1/3'
    """
    def fail(problem: str, column: int) -> ProseError:
        return ProseError(f"{where}: {problem} at column {column + 1}: {text!r}")

    math_start, depth, math_depth, i = None, 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ord(ch) > 127:
            raise fail(f"non-ASCII {ch!r} (accents as TeX accents, \\'e; mathematics in $…$ with LaTeX macros)", i)
        if ch == "\\":
            command = re.match(r"\\(?:[A-Za-z]+|.)", text[i:])
            i += len(command.group()) if command else 1
            continue
        if ch == "$":
            if math_start is None:
                if text.startswith("$$", i):
                    raise fail("display math $$ (prose sets mathematics inline, in $…$)", i)
                math_start, math_depth = i, 0
            elif math_depth:
                raise fail("unbalanced braces in $…$", math_start)
            else:
                math_start = None
        elif ch in "{}":
            step = 1 if ch == "{" else -1
            depth += step
            if math_start is not None:
                math_depth += step
            if depth < 0 or (math_start is not None and math_depth < 0):
                raise fail("unbalanced '}'", i)
        elif ch in "%#" or (ch in TEXT_SPECIALS and math_start is None):
            inside = "inside" if math_start is not None else "outside"
            escaped = {"^": r"\^{}", "~": r"\~{}"}.get(ch, "\\" + ch)
            raise fail(f"{ch!r} {inside} $…$ (escape it as {escaped}"
                       + (", or write the mathematics in $…$)" if inside == "outside" else ")"), i)
        i += 1
    if math_start is not None:
        raise fail("unbalanced $", math_start)
    if depth:
        raise fail("unbalanced '{'", len(text) - 1)
    return text


def escape(text: str) -> str:
    r"""Data that is not prose (a file name, a user's ID, a drawn structure's label) as text LaTeX prints verbatim.

    >>> escape("my_notes.txt, 50%")
    'my\\_notes.txt, 50\\%'
    """
    return re.sub(r"[\\%&#_{}$]", lambda m: r"\textbackslash{}" if m.group() == "\\" else "\\" + m.group(),
                  text).replace("^", r"\^{}").replace("~", r"\~{}")


TERMINAL = {
    "varepsilon": "ε", "epsilon": "ε", "varphi": "φ", "phi": "ϕ", "alpha": "α", "beta": "β", "gamma": "γ",
    "delta": "δ", "zeta": "ζ", "eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "chi": "χ", "psi": "ψ", "omega": "ω",
    "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Sigma": "Σ", "Pi": "Π", "Phi": "Φ", "Omega": "Ω",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈", "sim": "∼", "ll": "≪",
    "to": "→", "mapsto": "↦", "Rightarrow": "⇒", "iff": "⇔", "in": "∈", "subset": "⊂", "perp": "⊥",
    "preceq": "≼", "infty": "∞", "pm": "±", "cdot": "·", "times": "×", "propto": "∝", "equiv": "≡", "wedge": "∧",
    "sum": "Σ", "prod": "Π", "int": "∫", "sqrt": "√", "nabla": "∇", "partial": "∂", "|": "‖", "dots": "…",
    "langle": "⟨", "rangle": "⟩", "ell": "ℓ", "mid": "|", "leftrightarrow": "↔", "forall": "∀", "top": "ᵀ",
    "tilde": "~", "S": "§", "%": "%", "_": "_", "&": "&", "#": "#", "$": "$", "{": "{", "}": "}",
    ",": " ", ";": " ", " ": " ", "!": "", "left": "", "right": "", "middle": "", "big": "", "Big": "",
}
"""The commonest macros of the prose and their Unicode; any other command prints as its name."""


def plain(text: str) -> str:
    r"""Prose as a terminal shows it: ``$`` dropped, the commonest macros as Unicode (:data:`TERMINAL`), TeX accents
    as accented letters, ``\symdpid{…}``, ``\symdpcode{…}`` and the like as their argument, fractions as ``(a)/(b)``,
    compound indices in parentheses.

    >>> plain(r"R\'enyi: $D_{\mathrm{KL}}(P\|Q) \le \tau^2/2$ (\symdpcode{loss\_standard}), 5--10\,s")
    'Rényi: D_KL(P‖Q) ≤ τ^2/2 (loss_standard), 5–10 s'
    >>> plain(r"$\frac{(2^{m+1}\tau)^2}{2}$, $\alpha \in \{-1, 1\}$")
    '((2^(m+1)τ)^2)/(2), α ∈ {-1, 1}'
    """
    marks = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303"}
    out = re.sub(r"\\([`'^\"~])\{?([A-Za-z])\}?", lambda m: m.group(2) + marks[m.group(1)], text)
    out = out.replace(r"\{", "\x01").replace(r"\}", "\x02")  # braces that print, kept through the groups' removal
    group = lambda inner: inner if re.fullmatch(r"\w+|.", inner) else f"({inner})"  # noqa: E731
    rules = ((r"(\\[A-Za-z]+)?\\(?:symdpid|symdpcode|texttt|emph|textit|textbf|text|math[a-z]+|operatorname\*?)\s*"
              r"\{([^{}]*)\}", lambda m: (m.group(1) + " " if m.group(1) else "") + m.group(2)),
             (r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}", lambda m: f"({m.group(1)})/({m.group(2)})"),
             (r"\\sqrt\{([^{}]*)\}", lambda m: "√" + group(m.group(1))),
             (r"([_^])\{([^{}]*)\}", lambda m: m.group(1) + group(m.group(2))),
             (r"(?<![\\A-Za-z}])\{([^{}]*)\}", lambda m: m.group(1)))
    while True:  # innermost groups first
        before = out
        for pattern, replace in rules:
            out = re.sub(pattern, replace, out)
        if out == before:
            break
    out = re.sub(r"\\([A-Za-z]+|.)", lambda m: TERMINAL.get(m.group(1), m.group(1)), out)
    out = out.replace("---", "—").replace("--", "–").replace("``", "“").replace("''", "”").replace("`", "‘")
    out = re.sub(r"[{}$]", "", out).replace("\x01", "{").replace("\x02", "}")
    return unicodedata.normalize("NFC", out)


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
        # inside a piece shrunk by \symdpfit (its argument's last brace), else after the row (which may end in \})
        shrunk = r"\symdpfit{" in rows[-1] and rows[-1].endswith("}")
        rows[-1] = rows[-1][:-1] + suffix + "}" if shrunk else rows[-1] + suffix
    return "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}"




# --- theorems ------------------------------------------------------------------------------------------------------

def _value_tex(value: Any) -> Optional[str]:
    r"""A drawn number as math: integers as they are, other numbers to 6 significant digits (``1.5 \cdot 10^{-7}``),
    infinities as ``\infty``; None for a value that is not a number.

    >>> _value_tex(1.5e-07), _value_tex(3), _value_tex("0.25"), _value_tex(float("inf")), _value_tex("dense")
    ('1.5 \\cdot 10^{-7}', '3', '0.25', '\\infty', None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    if math.isinf(number):
        return r"\infty" if number > 0 else r"-\infty"
    if math.isnan(number):
        return r"\mathrm{NaN}"
    mantissa, _, exponent = f"{number:.6g}".partition("e")
    return mantissa + (rf" \cdot 10^{{{int(exponent)}}}" if exponent else "")


def _data_tex(value: Any) -> str:
    """A drawn value as text: a number, a vector of numbers (a tuple) or a matrix of numbers (a small matrix) as
    math, a record field by field in parentheses (:func:`point_tex`), a list of anything else in brackets, a word
    in italics."""
    number = _value_tex(value)
    if number is not None:
        return f"${number}$"
    if isinstance(value, dict):
        return "(" + point_tex(value) + ")"
    if isinstance(value, (list, tuple)):
        entries = [_value_tex(v) for v in value]
        if entries and None not in entries:
            return r"$(" + r",\allowbreak ".join(entries) + ")$"
        rows = [[_value_tex(v) for v in row] if isinstance(row, (list, tuple)) else [None] for row in value]
        if rows and all(row and None not in row and len(row) == len(rows[0]) for row in rows):
            return (r"$\left(\begin{smallmatrix}" + r" \\ ".join(" & ".join(row) for row in rows)
                    + r"\end{smallmatrix}\right)$")
        return "[" + "; ".join(_data_tex(v) for v in value) + "]"
    return r"\textit{" + escape(str(value)) + "}"


def _key_tex(name: str) -> str:
    r"""A parameter's or field's name as math: a symbol as the printer writes it (``\sigma_{1}``), a word upright."""
    core = split_super_sub(ASCII_NAMES.get(name, name))[0].rstrip("'")
    if len(core) > 1 and core not in PAPER_NAMES and translate(core) == core:
        return r"\mathrm{" + escape(name) + "}"
    return latex(sp.Symbol(name))


def point_tex(point: dict) -> str:
    r"""Values by name as text: numbers as assignments, ``$\varepsilon = 1.09861$``; a drawn structure field by
    field (:func:`_data_tex`), its ``kind`` as a word.

    >>> point_tex({"epsilon": 1.0986122886681098, "sigma_1": 1})
    '$\\varepsilon = 1.09861$, $\\sigma_{1} = 1$'
    >>> print(point_tex({"delta": 0.1, "structure": {"kind": "exact", "p": [0.5, 0.5], "q": [0.4, 0.6]}}))
    $\delta = 0.1$, structure (\textit{exact}, $p = (0.5,\allowbreak 0.5)$, $q = (0.4,\allowbreak 0.6)$)
    >>> print(point_tex({"K": [[0.75, 0.25], [0.25, 0.75]]}))
    $K = \left(\begin{smallmatrix}0.75 & 0.25 \\ 0.25 & 0.75\end{smallmatrix}\right)$
    """
    parts = []
    for name, value in point.items():
        data = _data_tex(value)
        if name == "kind":
            parts.append(data)
        elif re.fullmatch(r"\$[^$]*\$", data):
            parts.append(f"${_key_tex(name)} = {data[1:-1]}$")
        else:
            parts.append(f"{escape(name)} {data}")
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
        details.append(f"{report.dps} digits, {report.seconds:.2g}\\,s")
    if getattr(report, "worst_ratio", None) is not None and verdict == "holds" and not report.tight:
        details.append(f"worst ratio quantity/bound {float(report.worst_ratio):.4g}")
    if report.counterexample and theorem.erratum is None:
        details.append("counterexample " + point_tex(dict(report.counterexample)))
    return r"\par\noindent\textit{Verdict:} " + summary + (" (" + "; ".join(details) + ")" if details else "") + "."


def _id_tex(ident: str) -> str:
    """A theorem ID as the catalogue's prose writes it (``\\symdpid``: typewriter type, breakable after its dots)."""
    return r"\symdpid{" + escape(ident) + "}"


def _citation(source, where: str) -> str:
    """The citation of a source as text: a paper of the catalogue as :func:`cite` writes it; a user's own source
    with its name as data and its number as prose."""
    if paper_of(source) is None:
        return ", ".join(p for p in (escape(source.seed), check_prose(source.number, where)) if p)
    return check_prose(cite(source), where)


def _formula(text: str) -> str:
    """A formula of an erratum (prose): displayed when it is one piece of mathematics, else a quoted paragraph."""
    formula = re.fullmatch(r"\$([^$]+)\$", text)
    if formula:
        return rf"\[ {fit(formula.group(1))} \]"
    return r"\begin{quote}" + text + r"\end{quote}"


def theorem_block(theorem, report=None, *, corrected_label: Optional[str] = None, notes: bool = True) -> str:
    r"""One theorem as a LaTeX environment: title and citation, hypotheses, the statement in display math (a long
    hockey-stick level named and stated after it, :func:`named_levels`), tightness, evidence, how the witness checks
    it (the notes, unless ``notes=False``), and the verdict when a :class:`~symdp.verify.Report` is given.

    A theorem whose statement as printed is wrong is a ``erratum`` environment: what was printed, the statement
    refuted with its counterexample, and the correction (a reference to the corrected theorem when
    ``corrected_label`` is given, as :func:`document` does, else its ID). The environments and macros are those of
    :func:`package`. Prose that is not LaTeX-ready is a :class:`ProseError` naming the theorem and the field.
    """
    def say(field: str, text: str) -> str:
        return check_prose(text, f"{theorem.id}: {field}")

    erratum = theorem.erratum
    env = "erratum" if erratum is not None else "theorem"
    # the title opens the body, not the environment's optional argument: amsthm sets that in an unbreakable box;
    # \sloppy (local to the environment) lets lines with unbreakable mathematics stretch rather than stick out
    lines = [rf"\begin{{{env}}}\label{{{_label(theorem.id)}}}\sloppy\textbf{{{say('title', theorem.title)}.}}",
             rf"\textit{{{_citation(theorem.source, f'{theorem.id}: source')}.}} {_id_tex(theorem.id)}\par"]
    if erratum is not None:
        kind = {"erratum": "As printed", "conjecture": "Conjectured", "sharpness": "Relaxed on purpose"}[erratum.kind]
        lines.append(rf"\noindent\textit{{{kind}}} ({say('erratum location', erratum.location)}):")
        lines.append(_formula(say("erratum printed", erratum.printed)))
        lines.append(r"\noindent This is encoded as follows, and refuted.")
    hyps = hypotheses(theorem)
    if hyps:
        lines.append("Let " + _sentence_list([f"${h}$" for h in hyps]) + ".")
    if theorem.structure_latex:
        lines.append(f"Checked on {say('structure_latex', theorem.structure_latex)}.")
    if hyps or theorem.structure_latex:
        lines.append("Then")
    statement, levels = named_levels(theorem.statement)
    where = [f"${latex(statement.lhs)} = {module_latex(theorem.quantity_latex)}$"] if theorem.quantity_latex else []
    where += [f"${latex(name)} = {latex(level)}$" for name, level in levels]
    lines.append(display(statement, suffix="" if where else "."))
    if where:
        lines.append("where " + _sentence_list(where) + ".")
    if theorem.tight_everywhere:
        lines.append("Equality holds for every admissible choice of the parameters.")
    elif theorem.tight_at:
        lines.append("The bound is attained, at " + "; ".join(point_tex(dict(p)) for p in theorem.tight_at) + ".")
    if theorem.symbolic_only:
        lines.append(r"\par\noindent\textit{Not checked numerically:} "
                     + say("symbolic_only", theorem.symbolic_only).rstrip(".") + ".")
    if theorem.evidence == "closed-form" and theorem.evidence_note:
        lines.append(r"\par\noindent\textit{Evidence:} closed form against closed form: "
                     + say("evidence_note", theorem.evidence_note).rstrip(".") + ".")
    if erratum is not None:
        lines.append(r"\par\noindent\textit{Counterexample:} " + (point_tex(dict(erratum.counterexample)) or "none")
                     + ".")
        see = (rf" (Theorem~\ref{{{corrected_label}}})" if corrected_label
               else f" ({_id_tex(erratum.corrected_id)})" if erratum.corrected_id else "")
        corrected = _formula(say("erratum corrected", erratum.corrected))
        lines.append(rf"\par\noindent\textit{{Corrected}}{see}:" + corrected)
        if erratum.note:
            lines.append(r"\noindent " + say("erratum note", erratum.note))
    if notes and theorem.notes:
        lines.append(r"\par\noindent{\small\textit{Check:} " + say("notes", theorem.notes) + "}")
    if report is not None:
        lines.append(_verdict_tex(theorem, report))
    lines.append(rf"\end{{{env}}}")
    return "\n".join(lines)


# --- derivations ---------------------------------------------------------------------------------------------------

STEP_RELATIONS = {"=": "=", "<=": r"\le", ">=": r"\ge"}


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
    steps = [(relation, tex, check_prose(reason, f"derivation {derivation.title!r}: step reason"))
             for relation, tex, reason in visible_steps(derivation)]
    if len(steps) == 1 and steps[0][0] == "":  # nothing to chain: the expression and why it is what it is
        return "\\begin{align*}\n" + rf"&{fit(start, 0.6)} && \text{{{steps[0][2]}}}" + "\n\\end{align*}"
    exprs = {printer.doprint(s.expr): s.expr for s in derivation.steps}
    start_alone = width(start) > room * 0.3
    lead = 2.0 if start_alone else room * 0.3 + 2  # a start beside the chain is shrunk to 0.3 of the line
    share = (room - lead - 3) / room
    broken = [_pieces(exprs[tex], printer, room * share) if width(tex) > room * share else [tex]
              for _, tex, _ in steps]
    widest = max([width(line) for lines in broken for line in lines] + [width(start) if start_alone else 0.0])
    rows: list[str] = [rf"&{fit(start, 0.95)}"] if start_alone else []
    for k, ((relation, _, reason_tex), lines) in enumerate(zip(steps, broken)):
        left = fit(start, 0.3) if (k == 0 and not start_alone) else ""
        head = f"{left} &{STEP_RELATIONS[relation]} {fit(lines[0], share - 0.02)}"
        rest = [rf"&\qquad {fit(line, share - 0.08)}" for line in lines[1:]]
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
    """A derivation as a titled block: the title, its source (seed files cited as their papers) and assumptions as
    prose, then the checked chain."""
    where = f"derivation {derivation.title!r}"
    head = [rf"\begin{{derivation}}\sloppy\textbf{{{check_prose(derivation.title, where + ': title')}.}}"]
    meta = []
    if derivation.source:
        meta.append(r"\textit{Source:} " + check_prose(cite_seeds(derivation.source), where + ": source").rstrip("."))
    if derivation.assumptions:
        meta.append(r"\textit{Assuming:} " + check_prose(derivation.assumptions, where + ": assumptions").rstrip("."))
    if meta:
        head.append(". ".join(meta) + ".")
    return "\n".join(head + [derivation_align(derivation), r"\end{derivation}"])


# --- the package and the document ----------------------------------------------------------------------------------

NEEDS = r"% needs \usepackage{symdp}: write it with symdp latex --sty > symdp.sty"
"""The first line of a body without preamble and of :func:`theorem_environment`: what the document must load."""


def package() -> str:
    r"""The LaTeX package ``symdp.sty`` (shipped with symdp) that a body of :func:`document` with ``preamble=False``,
    or a :func:`theorem_environment`, needs: amsmath, amssymb, amsthm and graphicx, the ``theorem`` (unless the
    document has its own), ``erratum`` and ``derivation`` environments, ``\symdpid`` and ``\symdpcode`` for theorem
    IDs and code in the prose (typewriter type, breakable after dots) and ``\symdpfit`` for mathematics shrunk to a
    width (:func:`fit`). Write it next to the document and load it with ``\usepackage{symdp}``.

    >>> package().startswith(r"\NeedsTeXFormat{LaTeX2e}") and r"\newcommand{\symdpid}" in package()
    True
    """
    return resources.files("symdp").joinpath("symdp.sty").read_text(encoding="utf-8")


def _preamble() -> str:
    """A complete document's preamble: the article class and page, the package's definitions inlined (the document
    compiles on its own, with no ``symdp.sty`` beside it), then the layout of a catalogue."""
    definitions = re.sub(r"^\\(?:NeedsTeXFormat|ProvidesPackage)\b.*\n", "", package(), flags=re.MULTILINE)
    return (r"""\documentclass[10pt]{article}
\usepackage[a4paper,margin=2.2cm]{geometry}
\makeatletter
""" + definitions + r"""\makeatother
\allowdisplaybreaks
\AtBeginDocument{\raggedright\sloppy}% titles carry unbreakable inline math: ragged lines, not overfull ones
\emergencystretch=3em
""")


PREAMBLE = _preamble()
"""What :func:`document` puts before ``\\begin{document}``: the definitions of :func:`package`, inlined."""


def theorem_environment(theorem, report=None) -> str:
    r"""One theorem environment (an ``erratum`` environment for a statement as printed that is false, naming its
    corrected theorem by ID) with the line saying what it needs: ``\input`` it in a document that loads
    ``\usepackage{symdp}`` (:func:`package`). With a :class:`~symdp.verify.Report`, the verdict is shown.

    >>> from symdp.theorems import get
    >>> print(theorem_environment(get("dwork.lem3.10")).splitlines()[1][:40])
    \begin{theorem}\label{thm:dwork.lem3.10}
    """
    return NEEDS + "\n" + theorem_block(theorem, report) + "\n"


def document(theorems: Iterable = (), *, derivations: Iterable = (), preamble: bool = True,
             reports: Optional[dict] = None, notes: bool = True, title: str = "symdp: the catalogue") -> str:
    r"""A complete LaTeX article: every theorem (errata beside their corrections, cross-referenced), then the
    derivations grouped by paper. ``derivations`` holds :class:`~symdp.derivation.Derivation` objects or
    ``(paper, derivation)`` pairs (as ``proofs.all_derivations`` gives them); ``reports`` maps theorem IDs to
    reports, whose verdicts are then shown; ``notes=False`` leaves out how each theorem is checked. Without
    ``preamble`` only the body is returned, to ``\input`` in a document that loads ``\usepackage{symdp}``
    (:func:`package`); its first line says so (:data:`NEEDS`).

    >>> doc = document([], derivations=[])
    >>> doc.startswith(r"\documentclass") and doc.rstrip().endswith(r"\end{document}")
    True
    >>> document([], derivations=[], preamble=False).splitlines()[0]
    '% needs \\usepackage{symdp}: write it with symdp latex --sty > symdp.sty'
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
            body.append(rf"\section*{{{heading}}}")
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
            name = source_paper.short if source_paper is not None else escape(group)
            body.append(r"\section*{Derivations" + (f": {name}" if name else "") + "}")
        body.append(derivation_block(d))
    if any(cited):
        items = "\n".join(rf"\bibitem[{p.short}]{{{p.key}}} {reference(p)}" for p in cited if p)
        widest = max((p.short for p in cited if p), key=len)
        body.append(f"\\begin{{thebibliography}}{{{widest}}}\n" + items + "\n\\end{thebibliography}")
    content = "\n\n".join(body) + "\n"
    if not preamble:
        return NEEDS + "\n\n" + content
    return (PREAMBLE + "\\title{" + check_prose(title, "document title") + "}\\date{}\n\\begin{document}\n"
            + "\\maketitle\n\n" + content + "\n\\end{document}\n")
