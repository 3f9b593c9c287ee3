"""Checks of a rule document before it is compiled: its JSON Schema and the checkers built on it."""
