"""The shared SymPy symbols: one symbol per name across the whole catalogue.

SymPy treats ``Symbol("epsilon", positive=True)`` and ``Symbol("epsilon", real=True)`` as two different symbols, so
a catalogue that declares a name twice has statements that look alike and are not. Every statement takes its
symbols from here. The assumptions are the weakest that every use of the name allows (ε is real: Claims 3.11/3.12
allow ε = 0, the claim language any sign); the finer domain of each theorem (α > 1, γ ∈ [0, 1], T ∈ ℕ) is its
:class:`~symdp.theorem.Param`'s, which is also what the checker draws from. Names of distributions, kernels and
datasets (``P``, ``Q``, ``M``, ``D``, ``K``) carry no assumption: they are arguments of divergence heads, not numbers.

A paper-specific quantity that no other result names may be declared in its own module, under a name not used here
(``tests/test_catalogue.py`` checks that no name is declared twice).
"""

import sympy as sp

# --- privacy parameters -----------------------------------------------------------------------------------------
epsilon = sp.Symbol("epsilon", real=True)
eps = epsilon
epsilon_p = sp.Symbol("epsilon'", real=True)
delta = sp.Symbol("delta", real=True)
delta_p = sp.Symbol("delta_p", real=True)
alpha = sp.Symbol("alpha", real=True)  # a Rényi order (α > 1 by its Param), or Lemma 3.9's exponent in [-1, 1]
lam = sp.Symbol("lambda", real=True)
lambda1 = sp.Symbol("lambda_1", positive=True)
lambda2 = sp.Symbol("lambda_2", positive=True)
gamma = sp.Symbol("gamma", real=True)
mu = sp.Symbol("mu", real=True)
mu1 = sp.Symbol("mu_1", real=True)
mu2 = sp.Symbol("mu_2", real=True)
tau = sp.Symbol("tau", real=True)
tau1 = sp.Symbol("tau_1", real=True)
tau2 = sp.Symbol("tau_2", real=True)
tau_m = sp.Symbol("tau_m", real=True)
rho = sp.Symbol("rho", positive=True)

# --- scales, sensitivities, rates ---------------------------------------------------------------------------------
sigma = sp.Symbol("sigma", positive=True)
sigma1 = sp.Symbol("sigma_1", positive=True)
sigma2 = sp.Symbol("sigma_2", positive=True)
Delta = sp.Symbol("Delta", real=True)
L = sp.Symbol("L", positive=True)
R = sp.Symbol("R", positive=True)
eta = sp.Symbol("eta", positive=True)
kappa = sp.Symbol("kappa", positive=True)
beta = sp.Symbol("beta", real=True)
theta = sp.Symbol("theta", real=True)
h = sp.Symbol("h", nonnegative=True)
c = sp.Symbol("c", real=True)
a = sp.Symbol("a", real=True)
b = sp.Symbol("b", real=True)
s = sp.Symbol("s", real=True)
t = sp.Symbol("t", real=True)
q = sp.Symbol("q", real=True)
x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)
z = sp.Symbol("z", real=True)
u = sp.Symbol("u", real=True)
w = sp.Symbol("w", real=True)
f = sp.Symbol("f", real=True)
p_x = sp.Symbol("p_x", positive=True)

# --- counts and indices (integers; their ranges are their Params') ------------------------------------------------
T = sp.Symbol("T", integer=True, positive=True)
n = sp.Symbol("n", integer=True, positive=True)
r = sp.Symbol("r", integer=True, positive=True)
d = sp.Symbol("d", integer=True, positive=True)
k = sp.Symbol("k", integer=True)
m = sp.Symbol("m", integer=True, nonnegative=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
j = sp.Symbol("j", integer=True, nonnegative=True)

# --- names of distributions, mechanisms, kernels, datasets --------------------------------------------------------
P, Q, M, Mp, D, Dp, K = sp.symbols("P Q M M' D D' K")


class Law(sp.Symbol):
    """A named distribution, kernel or operator of a statement (``\\mu K``, ``H_\\pi``), printed verbatim in LaTeX
    (a plain Symbol would read its underscores as subscripts). One class for every paper, so that a law named in
    two statements is one symbol."""

    def _latex(self, printer):
        return self.name
