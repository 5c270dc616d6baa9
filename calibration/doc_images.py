"""Make the pictures of docs/playing-at-the-table.md: ``python -m calibration.doc_images docs/img``.

The kit pages are drawn from the same geometry as the PDF (no PDF renderer needed); the
table views come from the synthetic camera, with the zones drawn as `eleusis calibrate
table --annotated` draws them. Pictures are palette PNGs, a few hundred KB in all.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from calibration.layout import TableLayout, default_layout
from calibration.overlay import draw_table_overlay
from vision.synthetic import (
    CardPlacement,
    Lighting,
    PinholeView,
    TokenPlacement,
    render_table_scene as render_scene,
    render_table_texture,
    token_tile_image,
)
from calibration.table import TableHomography
from calibration.tokens import find_tokens

__all__ = ["make_doc_images"]

MAIN_Y, SIDE_Y, PLAY_Y = -272.0, -170.0, 95.0
STEP = 70.0


def _save(img_bgr: np.ndarray, path: Path, width: int, colours: int = 96) -> None:
    h, w = img_bgr.shape[:2]
    small = cv2.resize(img_bgr, (width, round(h * width / w)), interpolation=cv2.INTER_AREA)
    rgb = Image.fromarray(cv2.cvtColor(small, cv2.COLOR_BGR2RGB))
    rgb.quantize(colours, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def _table_scene(layout: TableLayout, attempt: tuple[str, ...], tokens: tuple[TokenPlacement, ...],
                 view: PinholeView, first_x: float = 60.0) -> tuple[np.ndarray, np.ndarray]:
    main = ("3S", "7H", "4C", "9H")
    cards = [CardPlacement(label, (-60.0 + STEP * i, MAIN_Y), 0.0) for i, label in enumerate(main)]
    cards.append(CardPlacement("QD", (-60.0 + STEP * 1, SIDE_Y), 0.0))  # rejected when the line ended 7H (P4)
    step = 72.0  # cards side by side, a finger apart
    cards += [CardPlacement(label, (first_x + step * i, PLAY_Y), 2.0 * (i - 1)) for i, label in enumerate(attempt)]
    scene = render_scene(layout, view, tokens=tokens, cards=tuple(cards),
                         lighting=Lighting(gain=0.95, gradient=(0.12, -0.08), blur_sigma_px=0.5))
    homography = TableHomography(scene.table_to_px)
    found = find_tokens(scene.frame_bgr, layout, homography)
    drawn = draw_table_overlay(scene.frame_bgr, homography, layout, found)
    return scene.frame_bgr, drawn


def make_doc_images(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    layout = default_layout()
    written: list[Path] = []

    tex = render_table_texture(layout, px_per_mm=3.0)  # the PLAY sheet seen from straight above
    s, (ox, oy) = tex.px_per_mm, tex.origin_mm
    x0, y0 = int((-16.0 - ox) * s), int((-10.0 - oy) * s)
    sheet = tex.image[y0:y0 + int(210 * s), x0:x0 + int(297 * s)]
    written.append(out_dir / "play-sheet.png")
    _save(sheet, written[-1], 560, 48)

    tiles = [token_tile_image(t, layout.dictionary, 3.0) for t in layout.tokens]
    gap = np.full((tiles[0].shape[0], 24, 3), 255, np.uint8)
    row = np.hstack([part for tile in tiles for part in (tile, gap)][:-1])
    row = np.asarray(cv2.copyMakeBorder(row, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=(255, 255, 255)), np.uint8)
    cv2.rectangle(row, (0, 0), (row.shape[1] - 1, row.shape[0] - 1), (200, 200, 200), 1)
    written.append(out_dir / "tokens.png")
    _save(row, written[-1], 520, 16)

    view = PinholeView(tilt_deg=62.0, distance_mm=820.0, target_mm=(132.0, -80.0))
    prophet = TokenPlacement("prophet", (-60.0 + STEP * 4 - 5.0, MAIN_Y), 0.0)  # after 9H: the prophet's marker (F2)
    accept = TokenPlacement("accept", (215.0, PLAY_Y), -8.0)
    plain, drawn = _table_scene(layout, ("JC", "5D"), (prophet, accept), view)
    written.append(out_dir / "table-view.png")
    _save(plain, written[-1], 800)
    written.append(out_dir / "table-zones.png")
    _save(drawn, written[-1], 800)

    close = PinholeView(tilt_deg=75.0, distance_mm=430.0, target_mm=(132.5, 95.0))
    no_play = TokenPlacement("no_play", (38.0, PLAY_Y), 3.0)
    _, hand = _table_scene(layout, ("2C", "KS"), (no_play,), close, first_x=112.0)  # a batch of 2 (N1)
    written.append(out_dir / "no-play.png")
    _save(hand, written[-1], 640)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img")
    for path in make_doc_images(target):
        print(f"{path} ({path.stat().st_size // 1024} KB)")
