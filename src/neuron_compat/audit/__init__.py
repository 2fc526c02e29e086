"""Offline source-link audit: checks every `sources[].url` against local evidence (git mirrors, PyPI files).

A maintainer tool run by scripts/audit_sources.py; nothing on `check`'s or `validate`'s path imports it.
"""
