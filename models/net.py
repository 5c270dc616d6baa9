"""The card classifier network (torch; training only, never imported at run time).

Two branches, fed by :func:`vision.preprocess.preprocess`:

- corner branch: a small CNN applied with shared weights to both corner boxes (each shows an
  upright index); the two feature vectors are combined by an element-wise max, so the net
  reads whichever corner is clearer and a 180-degree turn changes nothing;
- face branch: a smaller CNN over the whole card at low resolution (pips, colour, art),
  pooled globally so it does not care which way up the card lies.

The head maps both to logits over ``CLASSES`` (52 cards, ``back``, ``none``).
"""

from __future__ import annotations

import torch
from torch import nn

from vision.preprocess import CORNER_H, CORNER_W


def _conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class CardNet(nn.Module):
    def __init__(self, n_classes: int, corner_features: int = 128, dropout: float = 0.2) -> None:
        super().__init__()
        self.corner = nn.Sequential(
            _conv(3, 12), nn.MaxPool2d(2),  # 28 x 20
            _conv(12, 24), nn.MaxPool2d(2),  # 14 x 10
            _conv(24, 48), nn.MaxPool2d(2),  # 7 x 5
            _conv(48, 80), nn.MaxPool2d(2),  # 3 x 2
            nn.Flatten(),
            nn.Linear(80 * (CORNER_H // 16) * (CORNER_W // 16), corner_features),
            nn.ReLU(inplace=True),
        )
        self.face = nn.Sequential(
            _conv(3, 12), nn.MaxPool2d(2),  # 22 x 16
            _conv(12, 24), nn.MaxPool2d(2),  # 11 x 8
            _conv(24, 48), nn.MaxPool2d(2),  # 5 x 4
            _conv(48, 64),
        )
        self.head = nn.Sequential(
            nn.Linear(corner_features + 128, 128),
            nn.ReLU(inplace=True),
            nn.Dropout(dropout),
            nn.Linear(128, n_classes),
        )
        self.corner_features = corner_features

    def forward(self, corners: torch.Tensor, face: torch.Tensor) -> torch.Tensor:
        n = corners.shape[0]
        c = self.corner(corners.reshape(n * 2, 3, CORNER_H, CORNER_W)).reshape(n, 2, self.corner_features)
        c = c.max(dim=1).values
        f = self.face(face)
        f = torch.cat([f.mean(dim=(2, 3)), f.amax(dim=(2, 3))], dim=1)
        return self.head(torch.cat([c, f], dim=1))
