"""The cross-file rules that apply to a compiled registry document from elsewhere (a file, a URL, the cache).

A registry directory gets every rule (rules/); a document was compiled by someone else, and `check` would
otherwise answer from it whatever it says: pick one of two families claiming a model_type, print a made-up
"held through ..." for a statement whose `since` is after its `until`, echo a 5,000,000-character data
version. These are the rules whose breach changes or garbles an answer; each returns one line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from neuron_compat.contract.models import RegistryDocument
from neuron_compat.contract.versions import version_key
from neuron_compat.safeio.safe_text import has_unsafe_characters

MAX_DATA_VERSION_LENGTH = 40
MAX_INSTANCES = 500
"""The most instance sizes a document may list (the registry lists a few dozen): fit tries each one."""
MAX_NEURON_CORES = 4096
"""The most NeuronCores (physical, or logical at any LNC setting) one instance, or cores per chip, may have:
the largest UltraServer has about a thousand; fit's work and output grow with the cores."""
MAX_CHIPS = 1024


def document_rule_problem(document: RegistryDocument) -> str | None:
    """The first cross-file rule `document` breaks, in words, or None."""
    return next(_problems(document), None)


def _problems(document: RegistryDocument) -> Iterator[str]:
    yield from _instance_bounds(document)
    version = document.data_version
    if version is not None and len(version) > MAX_DATA_VERSION_LENGTH:
        yield (f"data_version is {len(version)} characters long (at most {MAX_DATA_VERSION_LENGTH}; "
               "expected YEAR.MONTH.N such as '2026.12.0')")
    elif version is not None and has_unsafe_characters(version):
        yield "data_version holds control characters (expected YEAR.MONTH.N such as '2026.12.0')"
    yield from _duplicates("release", (release.version for release in document.releases))
    yield from _duplicates("stack id", (stack.id for stack in document.stacks))
    yield from _duplicates("family id", (family.id for family in document.families))
    for field in ("model_types", "architectures", "pipelines"):
        owner: dict[str, str] = {}
        for family in document.families:
            for value in getattr(family, field):
                first = owner.setdefault(value, family.id)
                if first != family.id:
                    yield (f"families '{first}' and '{family.id}' both list {field} '{value}' "
                           "(check would answer from one of them without saying so)")
    for family in document.families:
        for index, statement in enumerate(family.support):
            if statement.since and statement.until and version_key(statement.since) >= version_key(statement.until):
                yield (f"family '{family.id}' support[{index}]: since {statement.since} is not before "
                       f"until {statement.until}")


def _instance_bounds(document: RegistryDocument) -> Iterator[str]:
    instances = document.instances
    if instances is None:
        return
    if len(instances.instances) > MAX_INSTANCES:
        yield f"instances lists {len(instances.instances)} instance sizes (at most {MAX_INSTANCES})"
        return
    for generation in instances.generations:
        if (generation.cores_per_chip or 0) > MAX_NEURON_CORES:
            yield (f"hardware generation '{generation.hardware}': cores_per_chip {generation.cores_per_chip} "
                   f"(at most {MAX_NEURON_CORES})")
    for instance in instances.instances:
        cores = [instance.neuron_cores or 0, *instance.logical_neuron_cores.values()]
        if max(cores) > MAX_NEURON_CORES:
            yield f"instance '{instance.name}': {max(cores)} NeuronCores (at most {MAX_NEURON_CORES})"
        if (instance.chips or 0) > MAX_CHIPS:
            yield f"instance '{instance.name}': {instance.chips} chips (at most {MAX_CHIPS})"


def _duplicates(what: str, values: Iterable[str]) -> Iterator[str]:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            yield f"the {what} '{value}' is listed twice"
        seen.add(value)
