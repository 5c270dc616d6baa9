"""Made-up card designs for training and checking the classifier (seeded; numpy, cv2, Pillow).

The Debian card art gives about 40 designs; a classifier trained on them alone reads the
ink colour and the art more than the index. A procedural design varies what real decks
vary:

- the index: font (system TrueType/OpenType fonts), size (small, usual, *jumbo*), place,
  rank over suit or side by side, at two or four corners;
- the court letters: English J Q K, Russian В Д К (ace Т), German B D K, Dutch B V H, French
  V D R (labels stay the *meaning*: Д is a queen); Dutch V (queen) and French V (jack) share
  a letter, so the index alone cannot tell them: the model must learn to be unsure;
- the ink: black, dark blue, four-colour decks (blue diamonds, green clubs), and red printed
  so dark it is nearly black (suits must be told by shape, not colour);
- the face: standard pip layouts, or one big pip on any card (a 4 that looks like an ace
  but for its index), court pictures of random shapes;
- paper tint, frames, rounded corners; the back is a procedural pattern.

A design is a dict ``label -> BGRA image`` like :func:`models.dataset.load_design`.
Fonts are looked up in ``FONT_DIRS`` (Debian's DejaVu, Liberation, URW base35, Noto; the
images are training input only and are not distributed).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.cards import Card, Suit, all_kinds

__all__ = ["COURT_LETTERS", "SUIT_GLYPH", "make_design", "font_files"]

FONT_DIRS = tuple(
    Path(p)
    for p in os.environ.get(
        "CARD_FONT_DIRS",
        "cache/fonts:/usr/share/fonts/truetype/dejavu:/usr/share/fonts/truetype/liberation:"
        "/usr/share/fonts/opentype/urw-base35:/usr/share/fonts/truetype/noto",
    ).split(":")
)
# fonts whose glyphs carry the four suit symbols (U+2660..2667)
SUIT_FONT_NAMES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "LiberationSans-Regular.ttf",
                   "LiberationSerif-Bold.ttf", "LiberationSans-Bold.ttf", "LiberationSerif-Regular.ttf")
SUIT_GLYPH = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
# jack, queen, king, ace letters of national decks (the label is the meaning)
COURT_LETTERS: dict[str, tuple[str, str, str, str]] = {
    "english": ("J", "Q", "K", "A"),
    "russian": ("В", "Д", "К", "Т"),
    "german": ("B", "D", "K", "A"),
    "dutch": ("B", "V", "H", "A"),
    "french": ("V", "D", "R", "A"),
}
_SKIP_FONTS = ("Symbol", "D050000L", "StandardSymbols", "Fallback", "Math")
H = 320  # the design's card height in px (as load_design gives)

# pip centres for 2..10 in a unit box (x in 0..1 across, y in 0..1 down)
_L, _C, _R = 0.0, 0.5, 1.0
PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(_C, 0.5)],
    2: [(_C, 0), (_C, 1)],
    3: [(_C, 0), (_C, 0.5), (_C, 1)],
    4: [(_L, 0), (_R, 0), (_L, 1), (_R, 1)],
    5: [(_L, 0), (_R, 0), (_C, 0.5), (_L, 1), (_R, 1)],
    6: [(_L, 0), (_R, 0), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)],
    7: [(_L, 0), (_R, 0), (_C, 0.25), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)],
    8: [(_L, 0), (_R, 0), (_C, 0.25), (_L, 0.5), (_R, 0.5), (_C, 0.75), (_L, 1), (_R, 1)],
    9: [(x, y) for y in (0, 1 / 3, 2 / 3, 1) for x in (_L, _R)] + [(_C, 0.5)],
    10: [(x, y) for y in (0, 1 / 3, 2 / 3, 1) for x in (_L, _R)] + [(_C, 1 / 6), (_C, 5 / 6)],
}


@lru_cache(maxsize=1)
def font_files() -> tuple[list[str], list[str]]:
    """(rank fonts, suit fonts) found on this machine."""
    ranks: list[str] = []
    suits: list[str] = []
    seen: set[str] = set()
    for folder in FONT_DIRS:
        if not folder.is_dir():
            continue
        for f in sorted(folder.iterdir()):
            if f.suffix.lower() not in (".ttf", ".otf") or f.name in seen or any(s in f.name for s in _SKIP_FONTS):
                continue
            seen.add(f.name)
            if "Italic" in f.name or "Oblique" in f.name or "BdIta" in f.name:
                continue
            ranks.append(str(f))
            if f.name in SUIT_FONT_NAMES:
                suits.append(str(f))
    if not ranks or not suits:
        raise RuntimeError(f"no usable fonts under {':'.join(map(str, FONT_DIRS))} (set CARD_FONT_DIRS)")
    return ranks, suits


@lru_cache(maxsize=512)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, max(4, size))


def _glyph(text: str, font: str, height: int, colour: tuple[int, int, int], width_scale: float = 1.0) -> Image.Image:
    """``text`` as an RGBA image cropped to its ink, scaled so the ink is ``height`` px tall."""
    f = _font(font, height * 2)
    box = f.getbbox(text)
    w, h = max(1, box[2] - box[0]), max(1, box[3] - box[1])
    img = Image.new("L", (int(w) + 4, int(h) + 4), 0)
    ImageDraw.Draw(img).text((2 - box[0], 2 - box[1]), text, font=f, fill=255)
    bbox = img.getbbox() or (0, 0, 1, 1)
    img = img.crop(bbox)
    scale = height / max(1, img.height)
    size = (max(1, round(img.width * scale * width_scale)), max(1, height))
    mask = img.resize(size, Image.Resampling.LANCZOS)
    out = Image.new("RGBA", size, colour + (0,))
    out.putalpha(mask)
    return out


def _paste(canvas: Image.Image, glyph: Image.Image, cx: float, cy: float, turn: bool = False) -> None:
    g = glyph.rotate(180) if turn else glyph
    canvas.alpha_composite(g, (int(round(cx - g.width / 2)), int(round(cy - g.height / 2))))


def _inks(rng: np.random.Generator) -> dict[Suit, tuple[int, int, int]]:
    """RGB ink per suit: usual red/black, dark red, four colours, or everything dark."""
    b = rng.integers(0, 50, 3)
    black = (int(b[0]), int(b[1]), int(b[2]))
    r = rng.random()
    if r < 0.55:
        red = (int(rng.integers(170, 240)), int(rng.integers(0, 50)), int(rng.integers(0, 60)))
    elif r < 0.8:  # dark red / maroon / brown: read as spades by a colour-minded model
        red = (int(rng.integers(70, 130)), int(rng.integers(0, 40)), int(rng.integers(0, 40)))
    else:  # red printed nearly black, or a one-colour deck
        grey = rng.integers(20, 70, 3)
        red = (int(grey[0]), int(grey[1]), int(grey[2]))
    inks = {Suit.SPADES: black, Suit.CLUBS: black, Suit.HEARTS: red, Suit.DIAMONDS: red}
    if rng.random() < 0.15:  # four-colour deck
        inks[Suit.DIAMONDS] = (int(rng.integers(0, 60)), int(rng.integers(40, 120)), int(rng.integers(150, 230)))
        inks[Suit.CLUBS] = (int(rng.integers(0, 60)), int(rng.integers(100, 170)), int(rng.integers(0, 80)))
    if rng.random() < 0.1:  # dark blue instead of black
        blue = (int(rng.integers(0, 40)), int(rng.integers(20, 60)), int(rng.integers(90, 160)))
        inks[Suit.SPADES] = inks[Suit.CLUBS] = blue
    return inks


def _court_picture(rng: np.random.Generator, canvas: Image.Image, box: tuple[int, int, int, int],
                   letter: str, suit_img: Image.Image, rank_font: str, ink: tuple[int, int, int]) -> None:
    draw = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    if rng.random() < 0.7:
        draw.rectangle(box, outline=ink + (255,), width=int(rng.integers(1, 4)))
    for _ in range(int(rng.integers(3, 12))):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3)) + (255,)
        a = (int(rng.integers(x0, x1)), int(rng.integers(y0, y1)))
        b = (int(rng.integers(x0, x1)), int(rng.integers(y0, y1)))
        lo, hi = (min(a[0], b[0]), min(a[1], b[1])), (max(a[0], b[0]), max(a[1], b[1]))
        kind = rng.integers(3)
        if kind == 0:
            draw.ellipse((lo, hi), fill=colour)
        elif kind == 1:
            draw.rectangle((lo, hi), fill=colour)
        else:
            draw.line((a, b), fill=colour, width=int(rng.integers(2, 10)))
    if rng.random() < 0.5:  # a big letter in the picture (some decks do)
        g = _glyph(letter, rank_font, int((y1 - y0) * rng.uniform(0.25, 0.5)), ink)
        _paste(canvas, g, (x0 + x1) / 2, (y0 + y1) / 2)
    if rng.random() < 0.6:
        _paste(canvas, suit_img, x0 + (x1 - x0) * rng.uniform(0.2, 0.8), y0 + (y1 - y0) * rng.uniform(0.2, 0.8))


def make_design(rng: np.random.Generator, letters: str | None = None, back: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """One made-up design: ``{'AC': BGRA, ..., 'KS': BGRA, 'back': BGRA}`` about 320 px tall.

    ``letters`` picks the court letters (a key of ``COURT_LETTERS``); random when None.
    """
    from models.synth import procedural_back

    rank_fonts, suit_fonts = font_files()
    rank_font = rank_fonts[int(rng.integers(len(rank_fonts)))]
    suit_font = suit_fonts[int(rng.integers(len(suit_fonts)))]
    if letters is None:
        letters = str(rng.choice(list(COURT_LETTERS), p=[0.5, 0.15, 0.12, 0.11, 0.12]))
    jqka = COURT_LETTERS[letters]
    w = int(H / rng.uniform(1.38, 1.58))
    paper = tuple(int(v) for v in (rng.uniform(225, 255, 3) if rng.random() < 0.8 else rng.uniform(195, 250, 3)))
    inks = _inks(rng)
    style = rng.random()
    if style < 0.12:  # jumbo index
        rank_h = H * rng.uniform(0.13, 0.2)
    elif style < 0.3:
        rank_h = H * rng.uniform(0.05, 0.07)
    else:
        rank_h = H * rng.uniform(0.07, 0.11)
    suit_h = rank_h * rng.uniform(0.55, 1.0)
    margin_x = w * rng.uniform(0.03, 0.09)
    margin_y = H * rng.uniform(0.025, 0.06)
    side_by_side = rng.random() < 0.12
    four_corners = rng.random() < 0.15
    width_scale = rng.uniform(0.8, 1.25)
    pip_h = H * rng.uniform(0.08, 0.14)
    big_pip_share = 0.15 if rng.random() < 0.3 else 0.0  # some novelty decks: one big pip on every card
    ace_h = H * rng.uniform(0.2, 0.45)
    frame = rng.random() < 0.3
    radius = int(w * rng.uniform(0.03, 0.09))
    design: dict[str, np.ndarray] = {}
    for card in all_kinds():
        canvas = Image.new("RGBA", (w, H), paper + (255,))
        draw = ImageDraw.Draw(canvas)
        ink = inks[card.suit]
        if frame:
            inset = int(w * 0.06)
            draw.rectangle((inset, inset, w - inset, H - inset), outline=ink + (255,), width=1)
        rank_text = {1: jqka[3], 11: jqka[0], 12: jqka[1], 13: jqka[2]}.get(card.rank, str(card.rank))
        rank_img = _glyph(rank_text, rank_font, int(rank_h), ink, width_scale if len(rank_text) == 1 else width_scale * 0.8)
        suit_img = _glyph(SUIT_GLYPH[card.suit], suit_font, int(suit_h), ink)
        # the index: rank then suit below it (or beside it), centred on one column
        if side_by_side:
            rx = margin_x + rank_img.width / 2
            ry = margin_y + rank_img.height / 2
            sx, sy = rx + rank_img.width / 2 + suit_img.width / 2 + 2, ry
        else:
            col = margin_x + max(rank_img.width, suit_img.width) / 2
            rx, ry = col, margin_y + rank_img.height / 2
            sx, sy = col, margin_y + rank_img.height + rank_h * 0.15 + suit_img.height / 2
        corners = [(False, False), (True, True)] + ([(True, False), (False, True)] if four_corners else [])
        for flip_x, flip_y in corners:
            for gx, gy, g in ((rx, ry, rank_img), (sx, sy, suit_img)):
                x = w - gx if flip_x else gx
                y = H - gy if flip_y else gy
                _paste(canvas, g, x, y, turn=flip_y)
        # the face
        index_w = max(sx + suit_img.width / 2, rx + rank_img.width / 2) + 2
        area = (index_w + w * 0.04, H * 0.12, w - index_w - w * 0.04, H * 0.88)
        if card.rank in (11, 12, 13):
            box = (int(area[0]), int(area[1]), int(area[2]), int(area[3]))
            if box[2] - box[0] > 10:
                _court_picture(rng, canvas, box, rank_text, _glyph(SUIT_GLYPH[card.suit], suit_font, int(pip_h), ink),
                               rank_font, ink)
        elif card.rank == 1 or rng.random() < big_pip_share:
            big = _glyph(SUIT_GLYPH[card.suit], suit_font, int(ace_h if card.rank == 1 else ace_h * 0.8), ink)
            _paste(canvas, big, w / 2, H / 2)
        else:
            pip = _glyph(SUIT_GLYPH[card.suit], suit_font, int(pip_h), ink)
            x0, x1 = area[0] + pip.width / 2, area[2] - pip.width / 2
            y0, y1 = area[1] + pip.height / 2, area[3] - pip.height / 2
            if x1 <= x0:
                x0 = x1 = w / 2
            for px, py in PIP_LAYOUT[card.rank]:
                _paste(canvas, pip, x0 + (x1 - x0) * px, y0 + (y1 - y0) * py, turn=py > 0.5)
        rgba = np.asarray(canvas).copy()
        mask = np.zeros((H, w), np.uint8)
        cv2.rectangle(mask, (radius, 0), (w - radius - 1, H - 1), 255, -1)
        cv2.rectangle(mask, (0, radius), (w - 1, H - radius - 1), 255, -1)
        for cx, cy in ((radius, radius), (w - radius - 1, radius), (radius, H - radius - 1), (w - radius - 1, H - radius - 1)):
            cv2.circle(mask, (cx, cy), radius, 255, -1)
        rgba[:, :, 3] = mask
        design[str(card)] = cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA)
    b = back if back is not None else procedural_back(rng, H, w)
    design["back"] = b
    return design


def label_of(text: str) -> Card:  # pragma: no cover - helper for interactive checks
    return Card.parse(text)
