"""version_key orders versions as PEP 440 does around a release (pre-releases first), and numbers as numbers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from packaging.version import Version

from neuron_compat.contract.versions import version_key

IN_ORDER = [
    "0.3.9", "0.3.10", "0.3.99.1",
    "0.4.0.dev1", "0.4.0a1", "0.4.0a2", "0.4.0b1", "0.4.0rc1.dev1", "0.4.0rc1", "0.4.0rc1.post1", "0.4.0rc2",
    "0.4.0", "0.4.0.post1.dev1", "0.4.0.post1", "0.4.0.post2", "0.4.0.1",
    "0.4.1.dev0", "0.4.1rc1", "0.4.1", "2.9.0", "2.21.0", "2.21.1", "2.22.0", "10.0.0",
]


def test_a_release_candidate_comes_before_its_release() -> None:
    assert version_key("0.4.0rc1") < version_key("0.4.0")
    assert version_key("0.4.0rc1") > version_key("0.3.99")
    assert version_key("0.4.0rc1") != version_key("0.4.0rc2")


def test_a_list_in_pep_440_order_stays_in_order() -> None:
    keys = [version_key(v) for v in IN_ORDER]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    assert sorted(IN_ORDER, key=Version) == IN_ORDER  # the list itself is PEP 440's order


def test_trailing_zeros_count_and_text_parts_sort_low() -> None:
    # documented differences from PEP 440: '2.21' < '2.21.0'; a very long part is cut
    assert version_key("2.21") < version_key("2.21.0") < version_key("2.21.0.0")
    assert version_key("2.x") < version_key("2.0")
    assert version_key("9" * 5000) == (10**18 - 1,)  # only the first 18 digits reach int()


_SUFFIX = st.tuples(
    st.sampled_from(["", "a", "b", "rc"]), st.integers(0, 30),
    st.sampled_from(["", ".post"]), st.integers(0, 30),
    st.sampled_from(["", ".dev"]), st.integers(0, 30),
)


@st.composite
def three_part_versions(draw: st.DrawFn) -> str:
    release = ".".join(str(draw(st.integers(0, 12))) for _ in range(3))
    pre, pre_n, post, post_n, dev, dev_n = draw(_SUFFIX)
    return (release + (f"{pre}{pre_n}" if pre else "") + (f"{post}{post_n}" if post else "")
            + (f"{dev}{dev_n}" if dev else ""))


@given(three_part_versions(), three_part_versions())
def test_three_part_versions_compare_as_pep_440_compares_them(a: str, b: str) -> None:
    assert (version_key(a) < version_key(b)) == (Version(a) < Version(b))
    assert (version_key(a) == version_key(b)) == (Version(a) == Version(b))
