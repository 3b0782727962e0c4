"""The shared SymPy symbols, with the assumptions their names carry in the papers.

Assumptions make simplification correct by construction (``sqrt(sigma**2) == sigma``); the finer domains that
assumptions cannot express (α > 1, γ ∈ [0, 1]) are given by each theorem's :class:`~symdp.theorem.Param`.
"""

import sympy as sp

eps = sp.Symbol("epsilon", real=True)
eps_pos = sp.Symbol("epsilon", positive=True)
delta = sp.Symbol("delta", nonnegative=True)
alpha = sp.Symbol("alpha", positive=True)  # Rényi order; alpha > 1 is each theorem's Param domain
sigma = sp.Symbol("sigma", positive=True)
sigma1 = sp.Symbol("sigma_1", positive=True)
sigma2 = sp.Symbol("sigma_2", positive=True)
Delta = sp.Symbol("Delta", positive=True)
lam = sp.Symbol("lambda", real=True)
lambda1 = sp.Symbol("lambda_1", positive=True)
lambda2 = sp.Symbol("lambda_2", positive=True)
gamma = sp.Symbol("gamma", nonnegative=True)
L = sp.Symbol("L", positive=True)
c = sp.Symbol("c", positive=True)
h = sp.Symbol("h", nonnegative=True)
D = sp.Symbol("D", positive=True)
T = sp.Symbol("T", integer=True, positive=True)
r = sp.Symbol("r", integer=True, positive=True)
n = sp.Symbol("n", integer=True, positive=True)
tau = sp.Symbol("tau", nonnegative=True)
mu = sp.Symbol("mu", nonnegative=True)
theta = sp.Symbol("theta", positive=True)
rho = sp.Symbol("rho", positive=True)
t = sp.Symbol("t", nonnegative=True)
d = sp.Symbol("d", integer=True, positive=True)
R = sp.Symbol("R", positive=True)
eta = sp.Symbol("eta", positive=True)
beta = sp.Symbol("beta", positive=True)
kappa = sp.Symbol("kappa", positive=True)
q = sp.Symbol("q", nonnegative=True)
x = sp.Symbol("x", real=True)
