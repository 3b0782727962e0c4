"""The numeric engine: distribution families, finite laws, kernels, and the divergences between them.

Nothing here knows about theorems or SymPy statements; the model layer (``symdp.statement``, ``symdp.verify``)
calls into it through the divergence heads of ``symdp.expressions``.
"""
