"""The shipped rule files (package data)."""
