"""A view of the table: what the dealer sees and knows, drawn big enough to read from across it.

One picture (1920x1080 by default) with:
- the camera view, the zones outlined, each card the dealer sees outlined with its reading;
- the main line and the side branches as the engine knows them, drawn as cards, every
  10th card laid marked (E1) and the prophet's marker (F2);
- each player's hand (the prophet and the expelled marked), the stock, whether expulsion
  is on (E2), whose turn it is, and the last verdict in a coloured band;
- the seal of the rule (its commitment), once there is one.

``render_view`` makes the picture from a :class:`ViewState` (pure: numpy in, numpy out);
:class:`TableWindow` shows it in an OpenCV window, or does nothing when there is no
display (headless). Text goes through Pillow with DejaVu fonts, so Cyrillic and
accented names and sentences draw as well as English (``cv2.putText`` is ASCII-only).
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from calibration.layout import ZONE_MAIN_LINE, ZONE_PLAY, ZONE_SIDE_BRANCHES
from dealer.speech.i18n import _, n_
from dealer.table.keys import WindowSpeller
from engine.cards import RANK_NAMES, Card, Colour
from engine.events import EndReason
from engine.round import Round, RoundState
from engine.variants.kruskal import KruskalRound

__all__ = [
    "VERDICT_COLOURS",
    "CameraPicture",
    "SeenOutline",
    "TableWindow",
    "ViewState",
    "has_display",
    "render_view",
    "view_of_round",
]

BgrImage = npt.NDArray[np.uint8]
RGB = tuple[int, int, int]

VIEW_SIZE_WH = (1920, 1080)
WINDOW_SIZE_WH = (1280, 720)
X_CONNECT_TIMEOUT_S = 1.0  # an X display that does not answer this fast is not there  # the window's first size; it can be resized or made full screen
# The band of the last verdict: its colour says the verdict before the words are read.
VERDICT_COLOURS: dict[str, RGB] = {
    "accepted": (30, 150, 60),  # green
    "rejected": (200, 40, 40),  # red
    "noplay": (40, 90, 200),  # blue: a "no play" judged, right or wrong
    "prophet": (150, 70, 180),  # purple: a prophet appointed, confirmed or deposed
    "trouble": (220, 140, 0),  # amber: the dealer cannot judge yet (unreadable, out of place)
    "info": (70, 70, 70),  # grey: anything else the dealer said
}
# Cards drawn narrower than this are hard to read across a table: a long line shows its end.
MIN_CARD_W = 76
BACKGROUND: RGB = (22, 60, 38)  # baize green
PANEL: RGB = (14, 38, 24)
INK: RGB = (240, 240, 235)
DIM: RGB = (170, 190, 175)
CARD_RED: RGB = (200, 20, 30)
CARD_BLACK: RGB = (20, 20, 20)
ZONE_COLOURS: dict[str, RGB] = {ZONE_PLAY: (60, 200, 60), ZONE_SIDE_BRANCHES: (255, 165, 0), ZONE_MAIN_LINE: (40, 160, 255)}
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF",
             "/Library/Fonts", "C:/Windows/Fonts")


@dataclass(frozen=True)
class SeenOutline:
    """A card the camera sees: its four corners in frame pixels and its reading (None: unsure)."""

    quad_px: tuple[tuple[float, float], ...]
    label: str | None
    confidence: float = 1.0


@dataclass(frozen=True)
class CameraPicture:
    """A camera frame and what the dealer made of it: card outlines and the zones (frame pixels)."""

    bgr: BgrImage
    cards: tuple[SeenOutline, ...] = ()
    zones: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = ()


@dataclass(frozen=True)
class ViewState:
    """Everything the view shows at one moment. ``verdict_kind`` is a key of VERDICT_COLOURS."""

    round: RoundState | None = None
    expulsion_on: bool | None = False  # E2, as the engine checks it before the next turn; None: the game has none
    camera: CameraPicture | None = None
    verdict: str = ""
    verdict_kind: str = "info"
    seal: str | None = None  # the commitment to the rule (hex), once sealed
    title: str = "Eleusis"
    notes: tuple[str, ...] = field(default_factory=tuple)  # e.g. game totals, one line each
    revealed: str | None = None  # the rule in words once the round is over (G6): it replaces the seal
    scores: tuple[tuple[str, int], ...] = ()  # each player's score once the round is over (G3), then God's


def view_of_round(rnd: Round | KruskalRound | None, base: ViewState | None = None) -> ViewState:
    """``base`` (or an empty view) with the round as the engine knows it now."""
    base = base or ViewState()
    if rnd is None:
        return replace(base, round=None, expulsion_on=False)
    if isinstance(rnd, KruskalRound):
        return _view_of_kruskal(rnd, base)
    scores: tuple[tuple[str, int], ...] = ()
    if rnd.ended is not None:
        result = rnd.result()
        scores = (*((name, result.scores[name]) for name in rnd.players if name in result.scores),
                  (_("God (the dealer)"), result.dealer))
    return replace(base, round=rnd.state(), expulsion_on=rnd.expulsion_on and rnd.ended is None, scores=scores)


def _view_of_kruskal(rnd: KruskalRound, base: ViewState) -> ViewState:
    """A Kruskal round (KR3-KR8): the line and its side cards as the oracle turned them, and
    the players' points as they stand (KR5), the oracle's score once the deck is turned (KR8).
    Nobody holds cards and nobody is on turn, so the players' panel stays empty."""
    layout = rnd.layout
    result = rnd.result()
    scores: tuple[tuple[str, int], ...] = tuple((name, result.scores[name]) for name in rnd.players)
    if rnd.ended is not None:
        scores += ((_("God (the dealer)"), result.dealer),)
    state = RoundState(players=rnd.players, hands=(), stock=rnd.stock, layout=layout, whose_turn=None,
                       prophet=None, marker=None, been_prophet=(), expelled=(),
                       ended=None if rnd.ended is None else EndReason.STOCK, emptied=None,  # KR7: the view says "over"
                       turns=rnd.turns)
    return replace(base, round=state, expulsion_on=None, scores=scores)  # KR: nobody is expelled


@lru_cache(maxsize=32)
def _font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu (Cyrillic, accents, card suits) at ``size`` px; Pillow's own font if none is installed."""
    name = "DejaVuSansMono" if mono else "DejaVuSans"
    name += "-Bold.ttf" if bold else ".ttf"
    for folder in FONT_DIRS:
        path = Path(folder) / name
        if path.is_file():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size)


def _is_red(card: Card) -> bool:
    return card.suit.colour is Colour.RED


def _index(card: Card) -> str:
    """A card's corner index: 'A', '10', 'Q'."""
    return RANK_NAMES.get(card.rank, str(card.rank))


def _draw_card(draw: ImageDraw.ImageDraw, card: Card, x: int, y: int, w: int, h: int,
               mark: str | None = None) -> None:
    """A card face: white, the index at the top left, a big suit sign in the middle."""
    draw.rounded_rectangle((x, y, x + w, y + h), radius=max(4, w // 10), fill=(250, 250, 245),
                           outline=(90, 90, 90), width=2)
    colour = CARD_RED if _is_red(card) else CARD_BLACK
    draw.text((x + w * 0.08, y + h * 0.04), _index(card), font=_font(max(10, int(h * 0.30)), bold=True), fill=colour)
    draw.text((x + w / 2, y + h * 0.68), card.suit.symbol, font=_font(max(10, int(h * 0.42))), fill=colour, anchor="mm")
    if mark:  # E1: every 10th card laid is marked
        r = max(8, w // 4)
        draw.ellipse((x + w - 2 * r + 4, y - 6, x + w + 4, y - 6 + 2 * r), fill=(255, 215, 0), outline=(0, 0, 0))
        draw.text((x + w - r + 4, y - 6 + r), mark, font=_font(max(8, int(r * 0.9)), bold=True), fill=(0, 0, 0),
                  anchor="mm")


def _marks(state: RoundState) -> dict[tuple[int | None, int], str]:
    """Where the 10th, 20th, ... cards laid lie: (branch or None for the main line, position)."""
    seen: dict[int | None, int] = {}
    marks: dict[tuple[int | None, int], str] = {}
    for number, laid in enumerate(state.layout.laid, start=1):
        position = seen.get(laid.branch, 0)
        seen[laid.branch] = position + 1
        if laid.marked:
            marks[(laid.branch, position)] = str(number)
    return marks


def _draw_layout(draw: ImageDraw.ImageDraw, state: RoundState, box: tuple[int, int, int, int]) -> None:
    """The main line left to right, each side branch hanging under its card (P3, P4)."""
    x0, y0, x1, y1 = box
    main = state.layout.main
    if not main:
        return
    gap = 8
    width = x1 - x0
    card_w = int(min(112, max(MIN_CARD_W, (width + gap) / len(main) - gap)))
    deepest = max((sum(len(b.cards) for b in state.layout.branches if b.anchor == a)
                   for a in {b.anchor for b in state.layout.branches}), default=0)
    if deepest:  # the line, then its deepest branch overlapped a third of a card each: smaller cards fit it
        fit_h = (y1 - y0 - 12) / (2 + 0.32 * (deepest - 1))
        card_w = max(MIN_CARD_W // 2, min(card_w, int(fit_h / 1.4)))
    fits = max(1, (width + gap) // (card_w + gap))
    first = max(0, len(main) - fits)  # a very long line shows its end, which the next card is judged against
    card_h = int(card_w * 1.4)
    marks = _marks(state)
    if first:
        draw.text((x1, y0 - 8), f"… {first} earlier cards not shown", font=_font(28), fill=DIM, anchor="rb")
    for i in range(first, len(main)):
        x = x0 + (i - first) * (card_w + gap)
        _draw_card(draw, main[i], x, y0, card_w, card_h, marks.get((None, i)))
    if state.marker is not None and state.marker - 1 >= first:  # F2: after the card that ended the line
        mx = x0 + (state.marker - first) * (card_w + gap) - gap // 2
        draw.rectangle((mx - 3, y0 - 16, mx + 3, y0 + card_h + 16), fill=(150, 70, 180))
        draw.text((mx, y0 - 18), "♛", font=_font(30), fill=(210, 150, 240), anchor="mb")
    depth: dict[int, int] = {}
    step = max(18, int(card_h * 0.32))
    if deepest > 1:  # overlap them more rather than leave the last ones out (each keeps its index)
        room = y1 - (y0 + card_h + 12) - card_h
        step = min(step, max(12, room // (deepest - 1)))
    for b, branch in enumerate(state.layout.branches):
        if branch.anchor < first:
            continue
        x = x0 + (branch.anchor - first) * (card_w + gap)
        for j, card in enumerate(branch.cards):
            level = depth.get(branch.anchor, 0)
            y = y0 + card_h + 12 + level * step
            if y + card_h > y1:
                break
            _draw_card(draw, card, x, y, card_w, card_h, marks.get((b, j)))
            depth[branch.anchor] = level + 1


def _draw_players(draw: ImageDraw.ImageDraw, state: RoundState, x: int, y: int, w: int) -> int:
    """One line per player: the hand count, and who is on turn, prophet or expelled."""
    size = 40
    for name, hand in zip(state.players, state.hands):
        turn = name == state.whose_turn
        if turn:
            draw.rounded_rectangle((x - 10, y - 4, x + w, y + size + 10), radius=10, fill=(230, 200, 60))
        colour = (20, 20, 20) if turn else (DIM if name in state.expelled else INK)
        tag = " ♛" if name == state.prophet else (" ✗" if name in state.expelled else "")
        draw.text((x, y), f"{'▶ ' if turn else ''}{name}{tag}", font=_font(size, bold=turn), fill=colour)
        draw.text((x + w - 20, y), str(hand), font=_font(size, bold=True), fill=colour, anchor="ra")
        y += size + 18
    return y


def _draw_camera(canvas: Image.Image, camera: CameraPicture, box: tuple[int, int, int, int]) -> None:
    """The frame with zones and card outlines, scaled into ``box``; readings in big type.
    Everything is drawn on the scaled frame first, so nothing spills out of it."""
    x0, y0, x1, y1 = box
    h, w = camera.bgr.shape[:2]
    scale = min((x1 - x0) / w, (y1 - y0) / h)
    sw, sh = max(1, int(w * scale)), max(1, int(h * scale))
    small = cv2.resize(camera.bgr, (sw, sh), interpolation=cv2.INTER_AREA)
    picture = Image.fromarray(cv2.cvtColor(small, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(picture)

    def to_px(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(px * scale, py * scale) for px, py in points]

    for name, polygon in camera.zones:
        pts = to_px(polygon)
        if len(pts) >= 3:
            draw.line(pts + [pts[0]], fill=ZONE_COLOURS.get(name, (200, 200, 200)), width=3)
    for seen in camera.cards:
        pts = to_px(seen.quad_px)
        colour = (40, 220, 40) if seen.label else (240, 40, 40)
        draw.line(pts + [pts[0]], fill=colour, width=5)
        text = _label_text(seen.label) if seen.label else "?"
        top = max(44.0, min(p[1] for p in pts))
        left = min(max(0.0, min(p[0] for p in pts)), sw - 90.0)
        font = _font(34, bold=True)
        tb = draw.textbbox((left, top - 8), text, font=font, anchor="lb")
        draw.rectangle((tb[0] - 6, tb[1] - 4, tb[2] + 6, tb[3] + 4), fill=(0, 0, 0))
        draw.text((left, top - 8), text, font=font, fill=colour, anchor="lb")
    canvas.paste(picture, (x0 + ((x1 - x0) - sw) // 2, y0))  # centred in its box


def _label_text(label: str) -> str:
    """'10H' -> '10♥', for the camera's readings."""
    try:
        card = Card.parse(label)
    except ValueError:
        return label
    return _index(card) + card.suit.symbol


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
          width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and draw.textlength(lines[-1] + " " + word, font=font) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def render_view(state: ViewState, size_wh: tuple[int, int] = VIEW_SIZE_WH) -> BgrImage:
    """The picture of the table at this moment (BGR), as shown and as recorded."""
    W, H = size_wh
    canvas = Image.new("RGB", (W, H), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    side = int(W * 0.30)  # the right-hand panel: turn, players, stock, expulsion
    band_h = int(H * 0.13)  # the verdict band along the top
    # the verdict band
    colour = VERDICT_COLOURS.get(state.verdict_kind, VERDICT_COLOURS["info"])
    draw.rectangle((0, 0, W, band_h), fill=colour)
    size = int(band_h * 0.36)  # two lines of big type; smaller only when the sentence is long
    lines = _wrap(draw, state.verdict or state.title, _font(size, bold=True), W - 60)
    while len(lines) > 2 and size > band_h * 0.24:
        size -= 2
        lines = _wrap(draw, state.verdict or state.title, _font(size, bold=True), W - 60)
    lines = lines[:3]
    line_h = int(size * 1.2)
    top = max(0, (band_h - line_h * len(lines)) // 2)
    for k, line in enumerate(lines):
        draw.text((30, top + k * line_h), line, font=_font(size, bold=True), fill=(255, 255, 255))
    # the camera view, left
    cam_box = (20, band_h + 20, W - side - 20, int(H * 0.62))
    if state.camera is not None:
        _draw_camera(canvas, state.camera, cam_box)
    else:
        draw.rectangle(cam_box, outline=DIM, width=2)
        draw.text(((cam_box[0] + cam_box[2]) // 2, (cam_box[1] + cam_box[3]) // 2), "no camera picture",
                  font=_font(40), fill=DIM, anchor="mm")
    # the panel, right
    px = W - side
    draw.rectangle((px, band_h, W, H), fill=PANEL)
    y = band_h + 20
    draw.text((px + 24, y), state.title, font=_font(34, bold=True), fill=DIM)
    y += 56
    rnd = state.round
    if rnd is not None:
        turn = rnd.whose_turn
        head = _("Turn: {who}", who=turn) if turn else (_("The round is over") if rnd.ended else "")
        head_size = 56
        while head_size > 30 and draw.textlength(head, font=_font(head_size, bold=True)) > side - 48:
            head_size -= 4
        head_font = _font(head_size, bold=True)
        draw.text((px + 24, y), head, font=head_font, fill=(255, 225, 90))
        y += 84
        y = _draw_players(draw, rnd, px + 34, y, side - 60)
        y += 10
        draw.text((px + 24, y), _("Stock: {n}", n=rnd.stock), font=_font(40), fill=INK)
        y += 56
        draw.text((px + 24, y), n_("Table: {n} cards", "Table: {n} cards", rnd.layout.table_count), font=_font(40),
                  fill=INK)
        y += 56
        on = state.expulsion_on
        if on is not None:
            draw.rounded_rectangle((px + 20, y, W - 20, y + 60), radius=12,
                                   fill=(200, 40, 40) if on else (50, 80, 60))
            draw.text((px + 36, y + 8), _("Expulsion ON (E2)") if on else _("Expulsion off"), font=_font(38, bold=on),
                      fill=(255, 255, 255))
            y += 80
        if rnd.prophet:
            draw.text((px + 24, y), _("Prophet: {who}", who=rnd.prophet) + " ♛", font=_font(40, bold=True),
                      fill=(210, 150, 240))
            y += 56
    y = _draw_round_over(draw, state, px, y, side)
    for note in state.notes:
        for line in _wrap(draw, note, _font(30), side - 48):
            draw.text((px + 24, y), line, font=_font(30), fill=INK)
            y += 40
    if state.seal and not state.revealed:
        _draw_seal(canvas, draw, state.seal, px + 24, max(y, H - 270), W - 20)
    # the table as the engine knows it, bottom left
    if rnd is not None:
        _draw_layout(draw, rnd, (24, int(H * 0.62) + 50, W - side - 24, H - 10))
        draw.text((24, int(H * 0.62) + 6), _("Main line and side branches"), font=_font(30, bold=True), fill=DIM)
    return np.ascontiguousarray(cv2.cvtColor(np.asarray(canvas), cv2.COLOR_RGB2BGR))


@lru_cache(maxsize=8)
def _qr_picture(data: str, scale: int) -> Image.Image | None:
    """``data``'s QR code, each module ``scale`` x ``scale`` pixels, black on white; None
    without segno. Kept: the view is drawn again at every verdict with the same seal, and
    encoding it took half the drawing's time."""
    from dealer.record.seal_show import qr_modules

    modules = qr_modules(data)
    if modules is None:
        return None
    light = ~np.array(modules, bool)
    grey = np.repeat(np.repeat(light, scale, axis=0), scale, axis=1).astype(np.uint8) * np.uint8(255)
    return Image.fromarray(np.ascontiguousarray(np.repeat(grey[..., None], 3, axis=2)), "RGB")


def _draw_seal(canvas: Image.Image, draw: ImageDraw.ImageDraw, commitment: str, x: int, y: int, right: int) -> None:
    """The whole seal (R2): its QR code and its 64 digits, so that a photograph of the view
    is enough for `eleusis verify --seal` (dealer/record/seal_show.py)."""
    from dealer.record.seal_show import seal_lines

    draw.text((x, y), _("Rule sealed:"), font=_font(30, bold=True), fill=DIM)
    y += 42
    qr = _qr_picture(f"sha256:{commitment}", 5)
    if qr is not None:
        canvas.paste(qr, (x, y))
        x += qr.width + 16
    size = 24
    while size > 12 and draw.textlength("0000 0000 0000 0000", font=_font(size, mono=True)) > right - x:
        size -= 2
    for k, line in enumerate(seal_lines(commitment)):
        draw.text((x, y + k * (size + 8)), line, font=_font(size, mono=True), fill=INK)


def _draw_round_over(draw: ImageDraw.ImageDraw, state: ViewState, px: int, y: int, side: int) -> int:
    """Once the round is over: the scores (G3, G4) and the rule revealed (G6), in place of the seal."""
    if state.scores:
        draw.text((px + 24, y), _("Scores:"), font=_font(34, bold=True), fill=DIM)
        y += 46
        for name, score in state.scores:
            draw.text((px + 34, y), f"{name}  {score}", font=_font(34), fill=INK)
            y += 42
        y += 10
    if state.revealed:
        draw.text((px + 24, y), _("The rule:"), font=_font(30, bold=True), fill=DIM)
        y += 40
        for line in _wrap(draw, state.revealed, _font(28), side - 48)[:6]:
            draw.text((px + 24, y), line, font=_font(28), fill=INK)
            y += 36
    return y


def has_display() -> bool:
    """Can a window be shown here? On Linux: an X display (OpenCV's Qt draws through X, also
    under Wayland's XWayland) that answers; a display that is set but does not answer would
    make Qt abort the whole dealer. Elsewhere: assume yes."""
    if sys.platform.startswith("linux"):
        return x_display_answers(os.environ.get("DISPLAY", ""))
    return True


def x_display_answers(display: str) -> bool:
    """True when the X server named by ``display`` (":0", "unix:1", "localhost:10.0") accepts a connection.

    >>> x_display_answers(""), x_display_answers("not a display")
    (False, False)
    """
    host, sep, rest = display.rpartition(":")
    number = rest.split(".")[0]
    if not sep or not number.isdigit():
        return False
    try:
        if host in ("", "unix"):
            for address in (f"/tmp/.X11-unix/X{number}", f"\0/tmp/.X11-unix/X{number}"):  # file, abstract
                try:
                    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                        sock.settimeout(X_CONNECT_TIMEOUT_S)
                        sock.connect(address)
                    return True
                except OSError:
                    continue
            return False
        with socket.create_connection((host, 6000 + int(number)), timeout=X_CONNECT_TIMEOUT_S):
            return True
    except OSError:
        return False


class TableWindow:
    """The view in an OpenCV window; with no display (or ``headless``) it shows nothing."""

    def __init__(self, title: str = "Eleusis: the table", headless: bool | None = None,
                 fullscreen: bool = False) -> None:
        self.title = title
        self.fullscreen = fullscreen
        self._keys: list[str] = []
        self.headless = (not has_display()) if headless is None else headless
        self.why_headless = ""
        if not self.headless and not has_display():  # asked for a window where none can open
            self.headless = True
            self.why_headless = f"no X display answers at DISPLAY={os.environ.get('DISPLAY', '')!r}"
        self._open = False

    def show(self, picture: BgrImage) -> None:
        if self.headless:
            return
        if not self._open:
            if os.path.isdir(FONT_DIRS[0]):  # Qt ships no fonts of its own; it says so on every start
                os.environ.setdefault("QT_QPA_FONTDIR", FONT_DIRS[0])
            cv2.namedWindow(self.title, cv2.WINDOW_NORMAL | cv2.WINDOW_KEEPRATIO | cv2.WINDOW_GUI_NORMAL)
            cv2.resizeWindow(self.title, *WINDOW_SIZE_WH)
            if self.fullscreen:
                cv2.setWindowProperty(self.title, cv2.WND_PROP_FULLSCREEN, cv2.WINDOW_FULLSCREEN)
            self._open = True
        cv2.imshow(self.title, picture)
        self._take_key(cv2.waitKey(1))

    def _take_key(self, code: int) -> None:
        if code != -1 and 32 <= (code & 0xFF) < 127:
            self._keys.append(chr(code & 0xFF))

    def key_source(self, other: Callable[[], str] | None = None) -> Callable[[], str]:
        """A key poll (dealer/table/keys.py) that takes keys pressed in this window first,
        then ``other``'s (the terminal's): the players can press n, p, a, r... on either."""

        speller = WindowSpeller()  # "QS" typed here names a card; "q" alone ends the round

        def poll() -> str:
            if not self.headless and self._open:
                self._take_key(cv2.waitKey(1))
            line = speller.take(self._keys.pop(0) if self._keys else "")
            if line:
                return line
            return other() if other is not None else ""

        return poll

    def close(self) -> None:
        if self._open:
            cv2.destroyWindow(self.title)
            cv2.waitKey(1)
            self._open = False
