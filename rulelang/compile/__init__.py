"""Compiling a resolved document: the deck's tables, the typed IR (``ir``), expressions typed and
compiled to ``ast`` (``exprcompile``, ``functions``, ``codegen``), the phases, items and settlement
(``phases``, ``items``, ``settle``) and the helpers the generated module calls (``coderuntime``).

The second stage of the pipeline: it reads what ``rulelang.read`` produced and imports nothing
of the engine, the views or the front doors.
"""
