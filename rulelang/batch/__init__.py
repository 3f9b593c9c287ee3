"""The batch engine: many deals of one game advanced in lock-step as numpy arrays of bitmasks.

:mod:`~rulelang.batch.vectorize` rewrites a game's generated rule functions for arrays,
:mod:`~rulelang.batch.state` holds the deals. numpy is an optional extra (``pip install
'rulelang[batch]'``); nothing else of rulelang imports this package.
"""
