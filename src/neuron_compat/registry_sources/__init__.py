"""Which registry `check` answers from (a directory, a document, the bundled snapshot, a URL) and
reading it, with the one error type of this layer in its own module.

- `bundled`: The registry `check` answers from when none is named: built from registry/, never committed.
- `errors`: The one error of choosing and reading a registry for `check`: a line for a person.
- `remote`: Read a published registry document (the site's api/registry.json) over HTTPS, with a local cache.
- `selection`: Which registry `check` answers from, and opening it as a compiled registry.
"""
