"""One module per page type; each `render(registry)` returns {docs path: content}."""
