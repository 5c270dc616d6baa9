"""vision.chroma: the colours' spread from grey, the same values as numpy's expression."""

import doctest

import numpy as np
import numpy.typing as npt
import pytest

import vision.chroma
from vision.chroma import chroma_spread


def _numpy_spread(delta: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The expression chroma_spread stands for (as vision.zone_arm and vision.zone_light wrote it)."""
    return np.asarray(np.max(np.abs(delta - np.mean(delta, axis=2, keepdims=True)), axis=2), np.float32)


@pytest.mark.parametrize("seed", range(5))
def test_given_log_colour_differences_when_spread_measured_then_numpy_values_bit_for_bit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    # log-colour differences as a view holds them: small changes, a few large (a hand), and
    # values whose float32 sums round (so a different order of additions would show)
    delta = rng.normal(0.0, 0.05, (97, 131, 3)).astype(np.float32)
    delta[10:40, 20:60] += rng.normal(0.0, 0.8, (30, 40, 3)).astype(np.float32)
    delta[50, :, :] = np.float32(1.0 / 3.0) * np.arange(1, 4, dtype=np.float32)
    expected = _numpy_spread(delta)
    got = chroma_spread(delta)
    assert got.dtype == np.float32 and got.shape == delta.shape[:2]
    assert np.array_equal(got, expected)


def test_given_grey_change_when_spread_measured_then_zero_and_a_tint_is_not() -> None:
    delta = np.zeros((4, 4, 3), np.float32)
    delta[0, 0] = (-0.4, -0.4, -0.4)  # a shadow: all colours darker alike
    delta[3, 3] = (0.0, 0.0, 0.3)  # redder: a hand, a card
    spread = chroma_spread(delta)
    assert spread[0, 0] == 0.0
    assert spread[3, 3] == pytest.approx(0.2, abs=1e-6)


def test_given_the_module_when_its_docstring_examples_run_then_they_pass() -> None:
    result = doctest.testmod(vision.chroma)
    assert result.attempted > 0 and result.failed == 0
