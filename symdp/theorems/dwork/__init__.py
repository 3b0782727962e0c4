"""Dwork & Rothblum, *Concentrated Differential Privacy* (2016).

Seed ``../shared/seeds/004_b3a545b59162ae7d.txt``; catalogue ``../shared/catalogue/catalogue-dwork.md`` (whose IDs the
theorems carry). One module per part of the paper, in its order:

* :mod:`.subgaussian` — Section 2 and the privacy-loss machinery: divergences and DP (Definitions 2.1–2.5),
  subgaussian variables (Lemmas 2.1–2.3, Facts 2.1–2.2), the privacy-loss variable (Definitions 3.1–3.2,
  Corollary 3.1), Hoeffding's lemma (3.6), Fact 4.1 and the observation KL ≤ τ²/2;
* :mod:`.cdp` — concentrated DP (Definition 3.3, Theorems 3.2–3.5, Corollary 3.3) and advanced composition
  (Theorem 1.1);
* :mod:`.antipodal` — Section 3.2: the "antipodal KL" results (Lemmas 3.7–3.10, Proposition 3.1, Claims 3.11–3.12);
* :mod:`.group` — Section 4: group privacy (Theorem 4.1, Lemmas 4.2–4.3, Claims 4.4–4.5, Fact 4.1).

The derivations behind them are in :mod:`proofs.dwork`, part by part as well.
"""

from __future__ import annotations

from symdp.theorems.dwork import antipodal, cdp, group, subgaussian

SECTIONS = (subgaussian, cdp, antipodal, group)
THEOREMS = [theorem for section in SECTIONS for theorem in section.THEOREMS]
