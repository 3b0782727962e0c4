"""The pytest plug-in, run on a user's test module by pytest itself (``pytester``), and ``symdp verify --module``.

The user's module is written as a researcher would, with the catalogue's declarative form; its theorems' truth is
known (AM-GM holds with equality at x = 1; x + 1/x <= 3 is false for x > 2.62), so every outcome asserted here could
be otherwise.
"""

import json
import sys
import textwrap

import pytest

from symdp.cli import main

pytest_plugins = ["pytester"]

HEAD = '''
import mpmath
import sympy as sp
from symdp.theorem import INDEPENDENT, Erratum, Param, Source, Theorem, register, theorem

x = sp.Symbol("x", positive=True)
S = sp.Symbol("S")
X = Param(x, sp.Interval.open(0, sp.oo), sample=(0.01, 100))
'''

AMGM = '''
@theorem(id="me.amgm", title="AM-GM", source=Source("my notes", "Lemma 1"), parameters=(X,),
         statement=sp.Ge(S, 2), evidence=INDEPENDENT, tight_at=({"x": 1},))
def amgm(point):
    """S = x + 1/x."""
    return {S: point["x"] + 1 / point["x"]}
'''

FALSE = '''
false_bound = register(Theorem("me.false", "x + 1/x <= 3", Source("my notes", "Claim 2"), sp.Le(S, 3),
                               witness=lambda p: p["x"] + 1 / p["x"], parameters=(X,), evidence=INDEPENDENT))
'''

PRINTED = '''
@theorem(id="me.printed", title="AM-GM as misprinted", source=Source("my notes", "eq. (3)"), parameters=(X,),
         statement=sp.Ge(S, sp.Rational(5, 2)), evidence=INDEPENDENT,
         erratum=Erratum("eq. (3)", "x + 1/x >= 5/2", "x + 1/x >= 2", {"x": 1}, "me.amgm"))
def printed(point):
    return {S: point["x"] + 1 / point["x"]}
'''

LOOSE_BUT_CLAIMED_TIGHT = '''
@theorem(id="me.loose", title="x + 1/x >= 1, claimed tight", source=Source("my notes", "eq. (4)"), parameters=(X,),
         statement=sp.Ge(S, 1), evidence=INDEPENDENT, tight_at=({"x": 1},))
def loose(point):
    return {S: point["x"] + 1 / point["x"]}
'''

NOISY = '''
from symdp.estimate import Estimate

register(Theorem("me.noisy", "a witness whose error swamps the margin", Source("my notes", "eq. (5)"), sp.Le(S, 1),
                 witness=lambda p: Estimate(mpmath.mpf("0.99"), mpmath.mpf("0.1"), "quadrature"), parameters=(X,),
                 evidence=INDEPENDENT))
'''


@pytest.fixture
def run(pytester, monkeypatch):
    """Run pytest on a user's module with exactly this plug-in loaded (installed entry points are not)."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")

    def go(name, *parts, args=()):
        pytester.makepyfile(**{name: textwrap.dedent(HEAD + "".join(parts))})
        return pytester.runpytest("-p", "symdp.plugin", "-p", "no:cacheprovider", f"{name}.py", *args)

    return go


def test_each_declared_theorem_is_a_test_whose_outcome_is_its_verdict(run, pytester):
    result = run("test_user_verdicts", AMGM, FALSE, PRINTED, args=["--symdp-examples", "20", "-v"])
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    assert "me.amgm PASSED" in out and "me.printed PASSED" in out and "me.false FAILED" in out
    # the failure names the counterexample and the two sides, without a traceback into symdp
    assert "me.false is violated: counterexample {\"x\":" in out and "fails by" in out
    assert "Traceback" not in out
    # the summary reports the draws and the tightness check of the tight theorem
    assert "me.amgm: holds, tight" in out and "tightened x0.99 refuted at {\"x\": 1}" in out
    assert "me.printed: violated as printed (erratum)" in out
    assert not (pytester.path / ".hypothesis").exists()


def test_a_bound_claimed_tight_but_not_attained_fails_the_tightness_check(run):
    result = run("test_user_tightness", LOOSE_BUT_CLAIMED_TIGHT, args=["--symdp-examples", "5"])
    result.assert_outcomes(failed=1)
    assert "me.loose claims tightness, but its copy tightened to 0.99 x the bound is holds" in result.stdout.str()


def test_inconclusive_fails_with_the_precision_that_would_settle_it(run):
    result = run("test_user_noisy", NOISY, args=["--symdp-examples", "3"])
    result.assert_outcomes(failed=1)
    assert "me.noisy is inconclusive" in result.stdout.str() and "--symdp-dps" in result.stdout.str()


def test_options_reach_the_verifier(run):
    result = run("test_user_options", AMGM, args=["--symdp-examples", "7", "--symdp-dps", "30", "--symdp-seed", "3",
                                                  "--symdp-no-closed-forms"])
    result.assert_outcomes(passed=1)
    # the pinned tight instance, 7 draws and the local refinement's budget after 7 draws, at 30 digits
    from symdp.verify import refinements

    assert f"{1 + 7 + refinements(7)} draws at 30 digits" in result.stdout.str()


def test_a_theorems_list_joins_the_declared_theorems_and_imported_theorems_are_not_collected(run, pytester):
    # THEOREMS lists an imported theorem and one the module declares; a second declared theorem is not listed. All
    # three are collected, the listed declared one once: a researcher's @theorem is never dropped because the module
    # also has a list.
    pytester.makepyfile(user_theorems=textwrap.dedent(HEAD + AMGM + FALSE))
    own = AMGM.replace("me.amgm", "me.own").replace("def amgm", "def own")
    other = AMGM.replace("me.amgm", "me.other").replace("def amgm", "def other")
    listed = run("test_user_listed", "from user_theorems import amgm, false_bound\n", own, other,
                 "THEOREMS = [amgm, own]\n", args=["--symdp-examples", "3", "-v"])
    listed.assert_outcomes(passed=3)
    out = listed.stdout.str()
    assert out.count("me.own PASSED") == out.count("me.other PASSED") == out.count("me.amgm PASSED") == 1
    assert "me.false" not in out
    imported = run("test_user_imports", "from user_theorems import amgm, false_bound\n", args=["-v"])
    imported.assert_outcomes()  # nothing collected: the theorems belong to user_theorems


# a declared me.amgm, and a different theorem of the same ID in THEOREMS
CLASH = AMGM + FALSE.replace("register(Theorem", "(Theorem").replace('"me.false"', '"me.amgm"') + \
    "THEOREMS = [false_bound]\n"


def test_a_listed_and_a_declared_theorem_with_one_id_are_a_collection_error_naming_it(run):
    result = run("test_user_clash", CLASH, "def test_plain():\n    pass\n")
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    assert "test_user_clash declares two theorems with the ID 'me.amgm'" in out
    assert "INTERNALERROR" not in out and "Traceback" not in out


def test_verify_module_refuses_a_listed_and_a_declared_theorem_with_one_id(tmp_path, capsys):
    # (not in the test above: a module first imported in a test that uses pytester is dropped after it, conftest.py)
    (tmp_path / "clash.py").write_text(textwrap.dedent(HEAD + CLASH))
    status = main(["verify", "--module", str(tmp_path / "clash.py")])
    err = capsys.readouterr().err
    assert status == 2 and "clash declares two theorems with the ID 'me.amgm'" in err and len(err.splitlines()) == 1


def test_an_unregistered_theorem_is_a_fixture_not_a_test(run):
    # a bare Theorem(...) is how tests of the verifier build their toys: declaring means registering
    result = run("test_user_fixture", FALSE.replace("register(Theorem", "(Theorem"),
                 "def test_uses_it():\n    assert false_bound.id == 'me.false'\n")
    result.assert_outcomes(passed=1)


# --- symdp verify --module ----------------------------------------------------------------------------------------


def test_verify_module_by_path_and_by_dotted_name(tmp_path, capsys, monkeypatch):
    (tmp_path / "my_theorems.py").write_text(textwrap.dedent(HEAD + AMGM + FALSE + PRINTED))
    status = main(["verify", "--module", str(tmp_path / "my_theorems.py"), "--examples", "10", "--json"])
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert status == 1 and set(rows) == {"me.amgm", "me.false", "me.printed"}
    assert rows["me.amgm"]["verdict"] == "holds" and rows["me.false"]["verdict"] == "violated"
    assert rows["me.printed"]["expected"] is True
    monkeypatch.syspath_prepend(str(tmp_path))
    status = main(["verify", "--module", "my_theorems", "me.amgm", "--examples", "5"])
    out = capsys.readouterr().out
    assert status == 0 and "me.amgm" in out and "me.false" not in out
    assert not (tmp_path / ".hypothesis").exists()


@pytest.mark.parametrize("source, message", [
    (None, "cannot find the module"),
    ("import no_such_package_anywhere\n", "cannot import"),
    ("x = (\n", "SyntaxError"),
    ("X = 1\n", "declares no theorem"),
])
def test_verify_module_errors_are_one_line(tmp_path, capsys, source, message):
    path = tmp_path / "broken.py"
    if source is not None:
        path.write_text(source)
    status = main(["verify", "--module", str(path)])
    err = capsys.readouterr().err
    assert status == 2 and message in err and err.startswith("symdp: error:") and len(err.strip().splitlines()) == 1


def test_the_python_api_leaves_no_hypothesis_folder_beside_the_users_modules(tmp_path):
    # Hypothesis caches the constants of "local" modules (the user's, beside the working directory) under
    # ./.hypothesis; symdp's searches must send that cache elsewhere. A fresh process, as a user's script would be.
    import subprocess

    (tmp_path / "my_constants.py").write_text("X, Y, Z = 3.5, 0.25, 17\n")
    script = ("import my_constants\n"
              "from symdp import verify\n"
              "from symdp.claims import claim_theorem\n"
              "print(verify(claim_theorem('kl(laplace(0, b), laplace(1, b)) <= 1/b', 'b in [0.1, 10]'),"
              " examples=100).verdict)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.stdout.strip() == "holds", done.stderr
    assert not (tmp_path / ".hypothesis").exists()


CLAIMS = '''
from symdp.claims import claim_theorem

# KL(N(0,1) || N(m,1)) = m^2/2 (the Gaussian closed form): the first and third hold, the second fails at m = 1
THEOREMS = [claim_theorem("kl(gaussian(0, 1), gaussian(m, 1)) <= m**2/2", "m in [0, 2]"),
            claim_theorem("kl(gaussian(0, 1), gaussian(m, 1)) <= m**2/4", "m in [0, 2]"),
            claim_theorem("tv(gaussian(0, 1), gaussian(m, 1)) <= 1", "m in [0, 2]")]
'''


def test_claims_of_one_module_keep_their_own_reports(run, tmp_path, capsys):
    # each claim's ID comes from its text: the --module reports and pytest's tests cannot be matched to the wrong one
    (tmp_path / "my_claims.py").write_text(textwrap.dedent(HEAD + CLAIMS))
    status = main(["verify", "--module", str(tmp_path / "my_claims.py"), "--examples", "10", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert status == 1 and len({r["id"] for r in rows}) == 3
    assert [r["verdict"] for r in rows] == ["holds", "violated", "holds"]
    result = run("test_user_claims", CLAIMS, args=["--symdp-examples", "10"])
    result.assert_outcomes(passed=2, failed=1)


def test_two_theorems_with_one_id_are_refused_by_name(tmp_path, capsys):
    twice = CLAIMS.replace('"m in [0, 2]"),\n            claim_theorem("kl(gaussian(0, 1), gaussian(m, 1)) <= m**2/4"',
                           '"m in [0, 2]"),\n            claim_theorem("kl(gaussian(0, 1), gaussian(m, 1)) <= m**2/2"')
    (tmp_path / "twice.py").write_text(textwrap.dedent(HEAD + twice))
    status = main(["verify", "--module", str(tmp_path / "twice.py")])
    err = capsys.readouterr().err
    assert status == 2 and "declares two theorems with the ID 'claim." in err and len(err.splitlines()) == 1


def test_a_refuted_search_inside_a_users_hypothesis_test_proposes_no_patch(pytester, monkeypatch):
    # symdp's own search, refuted inside a user's hypothesis test that passes: Hypothesis must not be told about it
    # (it would write .hypothesis/patches/*.patch proposing an @example for the user's test)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.makepyfile(test_user_hypothesis=textwrap.dedent('''
        from hypothesis import given, settings, strategies as st
        from symdp import verify
        from symdp.claims import claim_theorem

        @settings(max_examples=2, database=None, deadline=None)
        @given(st.just(0))
        def test_refutes(_):
            # KL(N(0,1) || N(m,1)) = m^2/2 > m^2/4 for m > 0: refuted
            claim = claim_theorem("kl(gaussian(0, 1), gaussian(m, 1)) <= m**2/4", "m in [0.5, 2]")
            assert verify(claim, examples=5).verdict == "violated"
    '''))
    result = pytester.runpytest("-p", "hypothesis", "-p", "no:cacheprovider", "test_user_hypothesis.py")
    result.assert_outcomes(passed=1)
    assert not (pytester.path / ".hypothesis" / "patches").exists()
