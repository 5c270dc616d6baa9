"""The index-corner reader network (torch; training only, never imported at run time).

One corner box as :func:`vision.corners.corner_boxes` cuts it (BGR, ``CORNER_H`` x
``CORNER_W``, the rank's centre at the box's fixed anchor) in, three heads out:

- ``rank_logits`` [N, 13]: A, 2 ... 10, J, Q, K (court letters of any deck map to the rank
  they mean: Д is a queen);
- ``suit_logits`` [N, 4]: clubs, diamonds, hearts, spades (``engine.cards`` order);
- ``index_logits`` [N, 1]: whether the box shows an index at its anchor at all (not a pair of
  a card's pips, court art, table clutter, a box half off the card or a covered corner).

Rank and suit are factored (13 + 4 classes, not 52): a glyph learnt on one suit reads on the
others, which generalises better to designs never seen. Each box is normalised by its own
mean and spread of grey levels first, so exposure and white balance matter less.
"""

from __future__ import annotations

import torch
from torch import nn

from vision.preprocess import CORNER_H, CORNER_W

N_RANKS = 13
N_SUITS = 4
OUTPUT_NAMES = ("rank_logits", "suit_logits", "index_logits")


def _conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class IndexNet(nn.Module):
    """Input: float32 [N, 3, CORNER_H, CORNER_W], BGR in [0, 1]."""

    def __init__(self, widths: tuple[int, int, int, int] = (16, 32, 48, 96), features: int = 128,
                 dropout: float = 0.15) -> None:
        super().__init__()
        a, b, c, d = widths
        self.body = nn.Sequential(
            _conv(3, a), nn.MaxPool2d(2),  # 28 x 20
            _conv(a, b), _conv(b, b), nn.MaxPool2d(2),  # 14 x 10
            _conv(b, c), nn.MaxPool2d(2),  # 7 x 5
            _conv(c, d), nn.MaxPool2d(2),  # 3 x 2: where a glyph lies in the box matters (the anchor)
            nn.Flatten(),
            nn.Linear(d * (CORNER_H // 16) * (CORNER_W // 16), features),
            nn.ReLU(inplace=True),
            nn.Dropout(dropout),
        )
        self.rank = nn.Linear(features, N_RANKS)
        self.suit = nn.Linear(features, N_SUITS)
        self.index = nn.Linear(features, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        spread = x.std(dim=(1, 2, 3), keepdim=True)
        f = self.body((x - mean) / (spread + 0.03))
        return self.rank(f), self.suit(f), self.index(f)
