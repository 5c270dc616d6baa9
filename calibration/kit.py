"""The printable kit: a PDF at true scale, for A4 or Letter.

Pages: (1) the protocol sheet in plain words, (2) the PLAY sheet (landscape) whose six
markers fix the table frame, (3) the four tokens, (4) the two guide tiles and a 100 mm
check bar, (5) the ChArUco board for ``eleusis calibrate camera``, (6-9) Kruskal's TRUE and
FALSE tokens, two seats a page (calibration/kruskal_tokens.py). All geometry comes
from ``calibration.layout`` and ``calibration.camera``; markers are drawn as vector
squares, so they print sharp at any resolution.

Print at 100 % ("actual size"), never "fit to page": the check bars must measure
exactly 100 mm and 50 mm.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from reportlab.lib.pagesizes import A4, LETTER, landscape, portrait
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from calibration.camera import CHARUCO, CharucoSpec
from calibration.layout import (
    TOKEN_MARKER_TOP_MM,
    TOKEN_TILE_MM,
    ZONE_PLAY,
    TableLayout,
    TokenSpec,
    default_layout,
)
from calibration.kruskal_tokens import KRUSKAL_SEATS, TILE_WORDS, kruskal_tokens, seat_of
from calibration.markers import marker_bits

__all__ = ["PAPER_SIZES_PT", "PROTOCOL", "KitPage", "kit_pages", "write_kit_pdf"]

PAPER_SIZES_PT = {"a4": A4, "letter": LETTER}
_FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")

# The plain-language protocol, printed on the kit's first page (title, paragraphs).
PROTOCOL: tuple[tuple[str, str], ...] = (
    ("Set up", ("Lay the PLAY sheet flat in front of the camera. The layout grows on the table "
     "beyond its top edge: first the side branches, then the main line, read left to right. "
     "Put guide tile 6 left and guide tile 7 right of the main-line area, level with the line and "
     "a hand's width outside it, so no card touches a tile. "
     "Run <b>eleusis calibrate table</b> once: it says whether the camera sees well enough.")),
    ("Your turn: an attempt", ("Lay your card or cards face up in the PLAY ZONE, left to right in "
     "the order you play them, not overlapping: at most 3 cards, 2 while a prophet is in office. "
     "Take your hand away. When the zone has been still for a moment, the dealer reads the cards "
     "and says its verdict.")),
    ("Follow the verdict", ("Accepted: move the cards, in the same order, to the right end of the "
     "main line. Rejected: move the whole attempt below the last card of the main line as one "
     "side branch, going down, and draw 2 cards for each card you played (P4). When the main line "
     "has no place left for the next card, move its older cards (all but the newest 4) with their "
     "branches, in order, to a pile beside the mat, and slide the newest 4 to the left.")),
    ("No play", ("Lay the NO PLAY token in the play zone, then your whole hand face up, 2 cards at "
     "a time beside the token: the dealer says how many cards it still needs to see; take the "
     "seen cards back and lay the next 2.")),
    ("The prophet", ("Right after your own turn you may take office: lay the PROPHET token just "
     "after the last card of the main line (F2; if the camera sees only the play zone, show it "
     "there first) and set your hand aside. From then on, after each attempt, the prophet lays "
     "ACCEPT or REJECT in the play zone's free place. For a no play the prophet's token replaces "
     "the NO PLAY token: ACCEPT, or REJECT beside the one card left in the zone, the card they "
     "say is legal. The dealer checks every decision (F3).")),
    ("Corrections", ("After each verdict the dealer compares the table with its record. If a card "
     "lies in the wrong place, it says which and where it belongs (\"QD should be in the side "
     "branch under 7H, it is on the main line\"). Move it; the dealer looks again. If a card was "
     "misread, press u: the verdict is taken back and the player lays the cards again.")),
    ("Keys, if the table is not enough", (
        "j: judge the play zone now. n: no play. p: prophet. a / r: the prophet accepts / rejects. "
        "1-9: the prophet rejects a no play and names the 1st-9th card from the left. "
        "u: take back the last verdict (a misread card). q: end the round.")),
)


@dataclass(frozen=True)
class KitPage:
    title: str
    landscape: bool


def kit_pages() -> tuple[KitPage, ...]:
    return (
        KitPage("How to play at the table", False),
        KitPage("PLAY sheet", True),
        KitPage("Tokens", False),
        KitPage("Guide tiles and scale check", False),
        KitPage("ChArUco board for camera calibration", False),
        *(KitPage(f"Kruskal tokens, seats {s} and {s + 1}", False) for s in range(1, KRUSKAL_SEATS, 2)),
    )


def _fonts() -> tuple[str, str]:
    """(regular, bold) font names; DejaVu when present (it has the token symbols)."""
    try:
        if "DejaVu" not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont("DejaVu", str(_FONT_DIR / "DejaVuSans.ttf")))
            pdfmetrics.registerFont(TTFont("DejaVu-Bold", str(_FONT_DIR / "DejaVuSans-Bold.ttf")))
        return "DejaVu", "DejaVu-Bold"
    except (OSError, TTFError):  # no DejaVu: plain fonts, and symbols fall back to words
        return "Helvetica", "Helvetica-Bold"


class _Sheet:
    """Draws in millimetres with y downwards from the top-left of the printed frame."""

    def __init__(self, canvas: Canvas, page_w_pt: float, page_h_pt: float, frame_mm: tuple[float, float]) -> None:
        self.c = canvas
        self.page_h = page_h_pt
        self.ox = (page_w_pt - frame_mm[0] * mm) / 2.0
        self.oy = (page_h_pt - frame_mm[1] * mm) / 2.0

    def pt(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (self.ox + x_mm * mm, self.page_h - self.oy - y_mm * mm)

    def rect(self, x: float, y: float, w: float, h: float, fill: bool = True, stroke: bool = False) -> None:
        px, py = self.pt(x, y + h)
        self.c.rect(px, py, w * mm, h * mm, fill=int(fill), stroke=int(stroke))

    def text(self, x: float, y: float, s: str, font: str, size: float, centre: bool = False) -> None:
        self.c.setFont(font, size)
        px, py = self.pt(x, y)
        if centre:
            self.c.drawCentredString(px, py, s)
        else:
            self.c.drawString(px, py, s)

    def marker(self, marker_id: int, x: float, y: float, size: float, dictionary: str) -> None:
        bits = marker_bits(marker_id, dictionary)
        n = bits.shape[0]
        cell = size / n
        self.c.setFillGray(0.0)
        for r in range(n):
            for col in range(n):
                if bits[r, col]:
                    # a hair of overlap so neighbouring cells print without seams
                    self.rect(x + col * cell - 0.01, y + r * cell - 0.01, cell + 0.02, cell + 0.02)

    def scale_bar(self, x: float, y: float, length: float, font: str, long_note: bool = True) -> None:
        self.c.setFillGray(0.0)
        self.rect(x, y, length, 1.2)
        for k in range(int(length / 10) + 1):
            self.rect(x + 10 * k - 0.2, y - 2.0, 0.4, 3.2)
        note = " (print at 100 %, not 'fit to page')" if long_note else ""
        self.text(x, y + 5.5, f"{length:.0f} mm: check with a ruler{note}", font, 7)


def _page_protocol(c: Canvas, size: tuple[float, float], fonts: tuple[str, str]) -> None:
    w, h = size
    sheet = _Sheet(c, w, h, (190.0, 265.0))
    regular, bold = fonts
    sheet.text(0, 8, "Eleusis at a real table: how to play", bold, 17)
    body = ParagraphStyle("body", fontName=regular, fontSize=10, leading=13.5)
    y = 18.0
    for title, text in PROTOCOL:
        sheet.text(0, y + 4, title, bold, 12)
        y += 7.0
        para = Paragraph(text, body)
        _pw, ph = para.wrap(190 * mm, 200 * mm)
        px, py = sheet.pt(0, y)
        para.drawOn(c, px, py - ph)
        y += ph / mm + 5.0
    sheet.text(0, 262, "Rules: see docs/rules.md (ids such as P4, N2, F3 refer to it).", regular, 8)


def _page_play(c: Canvas, size: tuple[float, float], layout: TableLayout, fonts: tuple[str, str]) -> None:
    w, h = size
    sheet = _Sheet(c, w, h, layout.sheet_size_mm)
    regular, bold = fonts
    play = layout.zone(ZONE_PLAY)
    xs = [p[0] for p in play.polygon_mm]
    ys = [p[1] for p in play.polygon_mm]
    c.setFillColorRGB(0.80, 0.86, 0.80)
    sheet.rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    c.setFillGray(0.25)
    sheet.text((min(xs) + max(xs)) / 2, min(ys) + 8, "PLAY ZONE", bold, 14, centre=True)
    sheet.text((min(xs) + max(xs)) / 2, min(ys) + 14,
               "lay your attempt here, left to right in the order played; or your hand for NO PLAY",
               regular, 8, centre=True)
    sheet.text((min(xs) + max(xs)) / 2, max(ys) - 3,
               "side branches and the main line lie beyond the top edge of this sheet",
               regular, 7, centre=True)
    for m in layout.markers:
        if m.role != "anchor":
            continue
        (x0, y0), size_mm = m.corners_mm[0], m.size_mm
        sheet.marker(m.marker_id, x0, y0, size_mm, layout.dictionary)
        c.setFillGray(0.4)
        sheet.text(x0 + size_mm + 1.5, y0 + 4, str(m.marker_id), regular, 6)
    c.setFillGray(0.0)
    sw, sh = layout.sheet_size_mm
    sheet.scale_bar(44.0, sh - 22.0, 50.0, regular, long_note=False)
    sheet.text(sw / 2, -3, "\u2191 side branches, then the main line \u2191", regular, 8, centre=True)


def _token_tile(sheet: _Sheet, x: float, y: float, token: TokenSpec, dictionary: str,
                fonts: tuple[str, str]) -> None:
    regular, bold = fonts
    tw, th = TOKEN_TILE_MM
    c = sheet.c
    c.setDash(2, 2)
    c.setStrokeGray(0.5)
    sheet.rect(x, y, tw, th, fill=False, stroke=True)
    c.setDash()
    m = token.marker_size_mm
    sheet.marker(token.marker_id, x + (tw - m) / 2.0, y + TOKEN_MARKER_TOP_MM, m, dictionary)
    word_y = y + TOKEN_MARKER_TOP_MM + m + 10.0
    sheet.text(x + tw / 2.0, word_y, token.word, bold, 15, centre=True)
    symbol = token.symbol if regular == "DejaVu" else ""
    if symbol:
        sheet.text(x + tw / 2.0, word_y + 14.0, symbol, bold, 26, centre=True)


def _page_tokens(c: Canvas, size: tuple[float, float], layout: TableLayout, fonts: tuple[str, str]) -> None:
    w, h = size
    sheet = _Sheet(c, w, h, (190.0, 265.0))
    tw, th = TOKEN_TILE_MM
    sheet.text(0, 5, "Tokens: cut along the dashed lines. Glue on card stock if you can.", fonts[0], 9)
    gap_x, gap_y = 190.0 - 2 * tw - 20.0, 12.0
    for k, token in enumerate(layout.tokens):
        col, row = k % 2, k // 2
        _token_tile(sheet, 10.0 + col * (tw + gap_x), 14.0 + row * (th + gap_y), token,
                    layout.dictionary, fonts)


def _page_guides(c: Canvas, size: tuple[float, float], layout: TableLayout, fonts: tuple[str, str]) -> None:
    w, h = size
    sheet = _Sheet(c, w, h, (190.0, 265.0))
    regular, bold = fonts
    sheet.text(0, 5, "Guide tiles: cut along the dashed lines.", regular, 9)
    y = 16.0
    for m in layout.markers:
        if m.role != "guide":
            continue
        s = m.size_mm
        c.setDash(2, 2)
        c.setStrokeGray(0.5)
        sheet.rect(10.0, y, s + 12.0, s + 12.0, fill=False, stroke=True)
        c.setDash()
        sheet.marker(m.marker_id, 16.0, y + 6.0, s, layout.dictionary)
        c.setFillGray(0.0)
        where = "top-left" if m.centre_mm[0] < layout.sheet_size_mm[0] / 2 else "top-right"
        sheet.text(s + 30.0, y + 12.0, f"GUIDE {m.marker_id}", bold, 14)
        side = "left" if where == "top-left" else "right"
        sheet.text(s + 30.0, y + 19.0, f"Lay it {side} of the main-line area, level with the line,", regular, 9)
        sheet.text(s + 30.0, y + 24.0, "a hand's width out, where no card of the line can touch it.", regular, 9)
        y += s + 24.0
    sheet.scale_bar(10.0, y + 10.0, 100.0, regular)
    sheet.text(10.0, y + 30.0, "If the bar is not 100 mm long, print again at 100 % (actual size).", regular, 9)


def _kruskal_tile(sheet: _Sheet, x: float, y: float, token: TokenSpec, dictionary: str,
                  fonts: tuple[str, str]) -> None:
    """A TRUE or FALSE tile: its marker, the seat, and the word in English, Russian and
    Portuguese (the dealer's three languages)."""
    regular, bold = fonts
    seat, says_main = seat_of(token)
    tw, th = TOKEN_TILE_MM
    c = sheet.c
    c.setDash(2, 2)
    c.setStrokeGray(0.5)
    sheet.rect(x, y, tw, th, fill=False, stroke=True)
    c.setDash()
    m = token.marker_size_mm
    sheet.marker(token.marker_id, x + (tw - m) / 2.0, y + TOKEN_MARKER_TOP_MM, m, dictionary)
    c.setFillGray(0.0)
    words = TILE_WORDS[says_main]
    top = y + TOKEN_MARKER_TOP_MM + m
    sheet.text(x + tw / 2.0, top + 8.0, f"{seat} · {words[0]}", bold, 13, centre=True)
    latin = regular == "DejaVu"  # Helvetica has no Cyrillic: the Russian words need DejaVu
    lines = (words[1], words[2], words[3]) if latin else (words[1], words[3])
    for k, line in enumerate(lines):
        sheet.text(x + tw / 2.0, top + 14.0 + 5.0 * k, line, regular, 7, centre=True)


def _page_kruskal(c: Canvas, size: tuple[float, float], first_seat: int, dictionary: str,
                  fonts: tuple[str, str]) -> None:
    w, h = size
    sheet = _Sheet(c, w, h, (190.0, 265.0))
    tw, th = TOKEN_TILE_MM
    sheet.text(0, 5, "Kruskal's variant: each seat's TRUE (main line) and FALSE (side line) tokens. "
               "Cut along the dashed lines.", fonts[0], 8)
    sheet.text(0, 10, "Show one, face up, in the strip in front of the PLAY sheet before each verdict; "
               "keep the other in your hand.", fonts[0], 8)
    gap_x = 190.0 - 2 * tw - 20.0
    tokens = [t for t in kruskal_tokens() if seat_of(t)[0] in (first_seat, first_seat + 1)]
    for k, token in enumerate(tokens):
        col, row = k % 2, k // 2
        _kruskal_tile(sheet, 10.0 + col * (tw + gap_x), 16.0 + row * (th + 14.0), token, dictionary, fonts)


def _page_charuco(c: Canvas, size: tuple[float, float], spec: CharucoSpec, fonts: tuple[str, str]) -> None:
    w, h = size
    sheet = _Sheet(c, w, h, (190.0, 265.0))
    bw, bh = spec.size_mm
    sheet.text(0, 5, "Camera calibration board (optional): eleusis calibrate camera --video FILE", fonts[0], 9)
    sheet.text(0, 10, "Film it flat at several angles and distances; keep it still in each view.", fonts[0], 9)
    grey = spec.image(px_per_mm=10.0)
    buf = io.BytesIO()
    Image.fromarray(grey).convert("1").save(buf, format="PNG")
    buf.seek(0)
    x0, y0 = (190.0 - bw) / 2.0, 18.0
    px, py = sheet.pt(x0, y0 + bh)
    c.drawImage(ImageReader(buf), px, py, bw * mm, bh * mm)
    sheet.text(x0, y0 + bh + 6.0,
               f"{spec.squares_xy[0]}x{spec.squares_xy[1]} squares of {spec.square_mm:g} mm, "
               f"markers {spec.marker_mm:g} mm, {spec.dictionary}", fonts[0], 8)


def write_kit_pdf(path: str | Path, paper: str = "a4", layout: TableLayout | None = None,
                  charuco: CharucoSpec = CHARUCO) -> Sequence[KitPage]:
    """Write the kit; returns its pages in order."""
    if paper not in PAPER_SIZES_PT:
        raise ValueError(f"paper {paper!r} is not known (choose one of {sorted(PAPER_SIZES_PT)})")
    layout = layout or default_layout()
    base = PAPER_SIZES_PT[paper]
    fonts = _fonts()
    c = Canvas(str(path), pagesize=portrait(base))
    c.setTitle("Eleusis at a real table: the kit")
    c.setAuthor("eleusis-dealer")
    pages = kit_pages()
    for page in pages:
        size = landscape(base) if page.landscape else portrait(base)
        c.setPageSize(size)
        if page.title.startswith("How"):
            _page_protocol(c, size, fonts)
        elif page.title.startswith("PLAY"):
            _page_play(c, size, layout, fonts)
        elif page.title == "Tokens":
            _page_tokens(c, size, layout, fonts)
        elif page.title.startswith("Guide"):
            _page_guides(c, size, layout, fonts)
        elif page.title.startswith("Kruskal"):
            _page_kruskal(c, size, int(page.title.split()[3]), layout.dictionary, fonts)
        else:
            _page_charuco(c, size, charuco, fonts)
        c.showPage()
    c.save()
    return pages
