"""The portability probe's harness (scripts/probe.py): tiny configs, workloads, captures, isolation, rendering.

Imported only by scripts/probe.py and tests/probe; needs the `probe` extra (CPU torch, transformers) for the
captures, not for rendering.
"""
