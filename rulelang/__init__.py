"""rulelang: the rules of trick-taking card games as data, and one interpreter for them.

The public entry points are :func:`rulelang.loader.load_game` (a rule file or a shipped
game's name to a compiled game) and the ``rulelang`` command line.
"""

__version__ = "0.1.0"
