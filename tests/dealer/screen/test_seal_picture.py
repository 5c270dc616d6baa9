"""The seal's QR code in the view of the table (R2): drawn module for module, and encoded
once per seal however often the view is drawn again."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer.record.seal_show import qr_modules
from dealer.screen import table_view
from dealer.screen.table_view import ViewState, render_view
from dealer.speech.i18n import use_language

segno = pytest.importorskip("segno")

SEAL = "0123456789abcdef" * 4


def _expected_qr(scale: int = 5) -> np.ndarray:
    """The QR code of the seal as the view draws it: black and white squares of ``scale`` px (BGR)."""
    modules = qr_modules(f"sha256:{SEAL}")
    assert modules is not None
    dark = np.array(modules, bool)
    grey = np.where(np.kron(dark, np.ones((scale, scale), bool)), 0, 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def test_given_a_sealed_round_when_the_view_is_drawn_then_its_qr_code_is_there_pixel_for_pixel() -> None:
    table_view._qr_picture.cache_clear()
    with use_language("en"):
        picture = render_view(ViewState(title="Round 1 of 3", seal=SEAL))
    qr = _expected_qr()
    # where it fits best (OpenCV's sums round), then pixel for pixel
    _, _, (x, y), _ = cv2.minMaxLoc(cv2.matchTemplate(picture, qr, cv2.TM_SQDIFF))
    assert np.array_equal(picture[y:y + qr.shape[0], x:x + qr.shape[1]], qr), "the seal's QR code is not its modules"


def test_given_the_view_drawn_at_every_verdict_when_the_seal_stays_then_it_is_encoded_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table_view._qr_picture.cache_clear()
    made: list[str] = []
    real_make = segno.make

    def counting_make(content: str, *args: object, **kwargs: object) -> object:
        made.append(content)
        return real_make(content, *args, **kwargs)

    monkeypatch.setattr(segno, "make", counting_make)
    state = ViewState(title="Round 1 of 3", seal=SEAL)
    with use_language("en"):
        first = render_view(state)
        again = render_view(ViewState(title="Round 1 of 3", seal=SEAL, verdict="Right", verdict_kind="accepted"))
        same = render_view(state)
    assert made == [f"sha256:{SEAL}"]
    assert np.array_equal(first, same)
    assert not np.array_equal(first, again)  # the verdict changed the view, not the seal's code
