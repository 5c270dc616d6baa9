"""How far a log-colour difference departs from grey, pixel by pixel: light (a shadow, a
lamp dimmed) changes the three colours alike, a thing of its own colour (a hand, a card, a
token) does not.

:func:`chroma_spread` is numpy's ``max(|delta - mean(delta, axis=2)|, axis=2)`` in
float32, the same values computed colour plane by colour plane in OpenCV: numpy's
reductions over an axis of three are several times slower on a whole view.

>>> delta = np.zeros((2, 2, 3), np.float32)
>>> delta[0, 0] = (0.3, 0.3, 0.3)      # darker or lighter alike: light
>>> delta[1, 1] = (0.0, 0.0, 0.3)      # redder
>>> chroma_spread(delta).astype(float).round(2).tolist()
[[0.0, 0.0], [0.0, 0.2]]
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["chroma_spread"]

FloatImage = npt.NDArray[np.float32]


def chroma_spread(delta: FloatImage) -> FloatImage:
    """Per pixel of ``delta`` (h, w, 3 float32), the largest distance of a colour from the
    colours' mean: numpy's float32 arithmetic in the same order, ((b + g) + r) / 3, then
    |c - mean|, so the same values as numpy's expression."""
    blue, green, red = cv2.split(np.asarray(delta, np.float32))
    mean = np.asarray(cv2.add(cv2.add(blue, green), red), np.float32)
    mean /= np.float32(3.0)
    spread = cv2.max(cv2.max(cv2.absdiff(blue, mean), cv2.absdiff(green, mean)), cv2.absdiff(red, mean))
    return np.asarray(spread, np.float32)
