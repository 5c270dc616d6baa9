"""Write the few small rendered test cards committed under ``tests/vision/data/`` (seeded).

Each file is a synthetic rectified crop (mild errors: a small index, slight blur, JPEG) of a
training design, named ``card_<label>_<design>.jpg``. Real photographs are never copied into
the repository. Run: ``python -m models.make_test_images`` after ``models.render_cards``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from models.dataset import load_design
from models.synth import AugmentConfig, TextureBank, augment_photo, place_card

OUT = Path("tests/vision/data")
PICKS = (
    ("QS", "gnome-paris"),
    ("10H", "gnome-anglo_poker"),
    ("AC", "kde-standard"),
    ("7D", "gnome-plastic"),
    ("KH", "kde-oxygen"),
    ("3S", "gnome-guyenne-classic"),
    ("back", "gnome-anglo_poker"),
)
MILD = AugmentConfig(corner_jitter=0.01, shift=0.008, rotate_deg=1.0, min_scale=0.6, max_noise=4.0, jpeg_quality=(70, 90))


def main(renders: Path = Path("cache/cards")) -> int:
    rng = np.random.default_rng(4242)
    bank = TextureBank(seed=99, count=8)
    OUT.mkdir(parents=True, exist_ok=True)
    for label, design_name in PICKS:
        design = load_design(renders / design_name)
        crop = place_card(rng, design[label], bank.crop(rng), MILD)
        image = augment_photo(rng, crop, MILD)
        path = OUT / f"card_{label}_{design_name}.jpg"
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        print(path, path.stat().st_size, "bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
