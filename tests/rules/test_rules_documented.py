"""The documented list of cross-file rules (CONTRIBUTING.md's reference, "Rules across files") is the rules' own
word: one entry per rule of `rules.RULES`, in name order, each the first paragraph of its module's docstring
(`Rule.summary`). A rule added, renamed or reworded without the list (or the reverse) fails here, and the message is
the list to paste."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from neuron_compat.rules import RULES

DOC = Path(__file__).resolve().parents[2] / "CONTRIBUTING.md"
START = "3. **Rules across files**"
END = "4. **A registry document**"


def expected_list() -> str:
    """The entries as the document writes them: under item 3 of a numbered list, wrapped at 116 columns."""
    return "".join(textwrap.fill(f"`{rule.name}`: {rule.summary}", width=116, initial_indent="   - ",
                                 subsequent_indent="     ", break_on_hyphens=False, break_long_words=False) + "\n"
                   for rule in sorted(RULES, key=lambda rule: rule.name))


def documented_list() -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(START):text.index(END)]
    return section.split("):\n", 1)[1]  # after the item's heading


def test_the_documented_list_is_every_rule_in_its_own_words() -> None:
    listed = re.findall(r"^   - `([a-z-]+)`:", documented_list(), re.MULTILINE)
    assert sorted(listed) == sorted(rule.name for rule in RULES), "the documented rules and rules.RULES disagree"
    assert documented_list() == expected_list(), f"{DOC.name}'s list of rules, from the rules' docstrings:\n" + expected_list()


def test_every_rule_module_is_run_and_says_what_it_checks() -> None:
    """Each module of rules/ with a RULE is in RULES (else validate never runs it), with a summary of its own."""
    import importlib
    import pkgutil

    import neuron_compat.rules as package

    modules = [importlib.import_module(f"neuron_compat.rules.{m.name}") for m in pkgutil.iter_modules(package.__path__)]
    defined = {module.RULE for module in modules if hasattr(module, "RULE")}
    assert defined == set(RULES) and len(RULES) == len(set(RULES)) == 21
    summaries = [rule.summary for rule in RULES]
    assert all(len(summary) > 40 for summary in summaries) and len(set(summaries)) == len(summaries)


def test_every_rule_module_has_its_test_file_beside_the_others() -> None:
    """rules/<name>.py is paired with tests/rules/test_rule_<name>.py (a case that fires, with its exact located
    message, and one that passes), and no test file names a rule module that is gone."""
    package = Path(__file__).resolve().parents[2] / "src" / "neuron_compat" / "rules"
    modules = {p.stem for p in package.glob("*.py") if "\nRULE = Rule(" in p.read_text(encoding="utf-8")}
    tests = {p.stem.removeprefix("test_rule_") for p in Path(__file__).parent.glob("test_rule_*.py")}
    assert modules == tests
