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
    """Outputs (in this order, the ONNX output names): ``logits`` [N, C] (the reading),
    ``corner_logits`` [N, 2, C] (each corner alone), ``face_logits`` [N, C] (the face alone),
    ``embedding`` [N, E] (the joint features, for enrolled-deck prototypes).

    The extra heads let run time demand that the two corners and the face agree with the
    reading: a design the net does not know tends to make them disagree.
    """

    def __init__(self, n_classes: int, corner_features: int = 128, dropout: float = 0.2,
                 widths: tuple[int, int, int, int] = (12, 24, 48, 80)) -> None:
        super().__init__()
        a, b, c, d = widths
        self.corner = nn.Sequential(
            _conv(3, a), nn.MaxPool2d(2),  # 28 x 20
            _conv(a, b), nn.MaxPool2d(2),  # 14 x 10
            _conv(b, c), nn.MaxPool2d(2),  # 7 x 5
            _conv(c, d), nn.MaxPool2d(2),  # 3 x 2
            nn.Flatten(),
            nn.Linear(d * (CORNER_H // 16) * (CORNER_W // 16), corner_features),
            nn.ReLU(inplace=True),
        )
        self.face = nn.Sequential(
            _conv(3, a), nn.MaxPool2d(2),  # 22 x 16
            _conv(a, b), nn.MaxPool2d(2),  # 11 x 8
            _conv(b, c), nn.MaxPool2d(2),  # 5 x 4
            _conv(c, 64),
        )
        self.joint = nn.Sequential(nn.Linear(corner_features + 128, 128), nn.ReLU(inplace=True))
        self.head = nn.Sequential(nn.Dropout(dropout), nn.Linear(128, n_classes))
        self.corner_head = nn.Sequential(nn.Dropout(dropout), nn.Linear(corner_features, n_classes))
        self.face_head = nn.Sequential(nn.Dropout(dropout), nn.Linear(128, n_classes))
        self.corner_features = corner_features

    def forward(self, corners: torch.Tensor, face: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        n = corners.shape[0]
        per_corner = self.corner(corners.reshape(n * 2, 3, CORNER_H, CORNER_W)).reshape(n, 2, self.corner_features)
        c = per_corner.max(dim=1).values
        f = self.face(face)
        f = torch.cat([f.mean(dim=(2, 3)), f.amax(dim=(2, 3))], dim=1)
        emb = self.joint(torch.cat([c, f], dim=1))
        return self.head(emb), self.corner_head(per_corner), self.face_head(f), emb
