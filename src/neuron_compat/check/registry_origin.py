"""Where an answer's data came from: printed in `check`'s header and in its JSON (`registry`). A plain record, so
the answer pipeline and the check page can name it without depending on how the registry was opened
(registry_sources/ fills it in)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RegistryOrigin:
    """Where the answer's data came from: printed in `check`'s header and in its JSON (`registry`)."""

    chosen_by: str  # "--registry", "NEURON_COMPAT_REGISTRY", "working directory" or "bundled"
    kind: str  # "directory", "file", "url" or "bundled"
    location: str
    data_version: str | None
    from_cache: bool = False
    note: str | None = None

    def describe(self) -> str:
        what = {"directory": "registry directory", "file": "registry document", "url": "published registry",
                "bundled": "snapshot bundled with neuron-compat"}[self.kind]
        text = f"{what} {self.location}" if self.kind != "bundled" else what
        if self.kind == "bundled" and not self.location.startswith("neuron_compat/"):
            text = f"snapshot compiled from this clone's registry ({self.location})"
        text += f", data version {self.data_version or 'unknown'}"
        if self.from_cache:
            text += f", from the local cache ({self.note})" if self.note else ", from the local cache"
        if self.chosen_by not in ("bundled",):
            text += f" (chosen by {self.chosen_by})"
        return text
