"""A stack's own pins (stacks.yaml `pins`, from its package metadata) are what `check` installs, and
`--stack-version STACK==VERSION` pairs a stack version with its Neuron release."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from neuron_compat.contract.models import StackVersion
from neuron_compat.environment.stack_version import StackVersionError, choose_release
from neuron_compat.registry_sources.selection import open_registry
from neuron_compat.views.recommendation import install_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def registry():
    return open_registry(str(ROOT / "registry"))[0]


def test_optimum_neuron_0_4_5_installs_its_own_pins_not_the_release_components(registry):
    stack = registry.stack_by_id["optimum-neuron"]
    version, install, not_recorded = install_for(registry, stack, "inference", "inf2", "2.26.1")
    assert version == "0.4.5" and not_recorded == []
    assert install == ["optimum-neuron 0.4.5", "neuronx-cc 2.21.33363.0", "torch-neuronx 2.8.0.2.10.16998",
                       "torch 2.8.0.*", "torchvision 0.23.*", "neuronx_distributed 0.15.22404",
                       "libneuronxla 2.2.12677.0"]
    assert not any(item.startswith(("nxd-inference", "pytorch")) for item in install)


def test_a_stack_without_pins_still_installs_the_release_components(registry):
    stack = registry.stack_by_id["nxd-inference"]
    _, install, _ = install_for(registry, stack, "inference", "trn2", "2.26.1")
    assert install[0] == "nxd-inference 0.6.10598" and "neuronx-cc 2.21.33363.0" in install


def test_pins_must_cite_where_they_are_stated():
    with pytest.raises(ValidationError, match="pins need pins_source"):
        StackVersion.model_validate({"version": "0.4.5", "neuron": "2.26.1", "pins": {"torch": "2.8.0.*"}})
    cited = StackVersion.model_validate({"version": "0.4.5", "neuron": "2.26.1", "pins": {"torch": "2.8.0.*"},
                                         "pins_source": "https://pypi.org/pypi/optimum-neuron/0.4.5/json"})
    assert cited.pins == {"torch": "2.8.0.*"}


@pytest.mark.parametrize("spec, stack, release", [
    ("optimum-neuron==0.3.0", "optimum-neuron", "2.24.0"),
    ("optimum_neuron 0.4.5", "optimum-neuron", "2.26.1"),
    ("nxd-inference==0.10.18399", "nxd-inference", "2.31.0"),
    ("vllm-neuron==0.29.0.1.2.0", "vllm-neuron", "2.33.1"),  # no version line: the newest release listing it
])
def test_a_stack_version_selects_its_release(registry, spec, stack, release):
    choice = choose_release(registry, spec)
    assert (choice.stack, choice.release) == (stack, release)


def test_pins_hold_as_pip_reads_them():
    from neuron_compat.environment.detection import pin_holds

    assert pin_holds("2.8.0.*", "2.8.0") and pin_holds("2.8.0.*", "2.8.0.1") and not pin_holds("2.8.0.*", "2.8.1")
    assert pin_holds("2.7.0.2.8.6734+ac864f72", "2.7.0.2.8.6734") and not pin_holds("2.21.33363.0", "2.21.18209.0")


def test_a_stack_next_to_other_versions_of_its_pins_is_a_mismatch(registry):
    from neuron_compat.environment.detection import detect
    from neuron_compat.environment.paste import read_paste

    environment = detect(registry, read_paste("optimum-neuron==0.4.5\nneuronx-cc==2.21.18209.0+abc\ntorch==2.8.0\n"))
    assert environment.mismatches[-1] == ("optimum-neuron 0.4.5 pins neuronx-cc 2.21.33363.0 (you have 2.21.18209.0): "
                                          "install the pinned versions")


@pytest.mark.parametrize("spec, message", [
    ("optimum-nueron==0.3.0", "unknown stack 'optimum-nueron'; did you mean 'optimum-neuron'?"),
    ("optimum-neuron==0.3.9", "optimum-neuron 0.3.9 is in no release this registry records; did you mean '0.3.0'?"),
    ("optimum-neuron", "expected STACK==VERSION, e.g. optimum-neuron==0.3.0"),
])
def test_a_stack_version_the_registry_does_not_know_is_one_line(registry, spec, message):
    with pytest.raises(StackVersionError, match=message.replace("(", r"\(").replace("?", r"\?")):
        choose_release(registry, spec)
