"""How large a registry file may be: the loader's caps, also what the compile cache's key reads at most."""

MAX_FILE_BYTES = 1024 * 1024
MAX_SNAPSHOT_BYTES = 4 * 1024 * 1024
"""A generated snapshot under registry/upstream/ (written by a script, never by hand) may be larger: the probe's
per-workload operator lists grow with the registry's model types (1.1 MiB at 169 of them)."""
