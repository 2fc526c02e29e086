"""Offline source-link audit: checks every `sources[].url` against local evidence (git mirrors, PyPI files).

A maintainer tool run by scripts/audit_sources.py; nothing on `check`'s or `validate`'s path imports it.

- `cited_urls`: Find every `sources[].url` in registry files, with its file and line, through the project's YAML loader.
- `local_evidence`: Local evidence a cited file can be checked against: bare git mirrors and PyPI release files.
- `run`: Audit every cited URL under a registry root and report one line per problem plus a count per outcome.
- `url_verdict`: Decide one cited URL: ok, broken (the evidence says it is wrong) or unverifiable (no local evidence).
"""
