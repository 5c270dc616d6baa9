"""Rendered scenes with known ground truth, all seen by one synthetic camera.

- :mod:`vision.synthetic.camera`: :class:`PinholeView`, the one camera (and
  :func:`camera_homography`, the same camera for loose-card scenes).
- :mod:`vision.synthetic.light`: :class:`Lighting`, named light conditions.
- :mod:`vision.synthetic.cards`: real photographed cards cut out with their own light.
- :mod:`vision.synthetic.loose`: :func:`render_scene`, loose cards on a bare table.
- :mod:`vision.synthetic.mat`: :func:`render_table_scene`, the printed mat with tokens,
  cards and hands on a table.
- :mod:`vision.synthetic.things`: :func:`with_thing`, a thing that is no card (a phone, a
  wallet) laid into a rendered picture.

For tests, benches and demos; nothing in the live dealer imports it.

>>> scene = render_table_scene(view=PinholeView(size_wh=(320, 180)), table="oak", kit_print="bw",
...                            hands=(HandPlacement((130.0, 90.0)),))
>>> scene.frame_bgr.shape
(180, 320, 3)
"""

from vision.synthetic.camera import PinholeView, camera_homography
from vision.synthetic.cards import REAL_CARDS, CardFace, cut_out, real_card_faces
from vision.synthetic.light import (
    ALL_CONDITIONS,
    LIGHT_CONDITIONS,
    Lighting,
    apply_lighting,
    random_lighting,
    scene_condition,
    with_shadow_of,
)
from vision.synthetic.loose import BACKGROUNDS, SyntheticScene, draw_card, render_scene, table_texture
from vision.synthetic.mat import (
    KIT_PRINTS,
    PLAY_TINT_BGR,
    TABLE_KINDS,
    TOKEN_TILE_MM,
    CardPlacement,
    HandPlacement,
    Scene,
    TokenPlacement,
    hand_outline_mm,
    render_flat_view,
    render_table_scene,
    render_table_texture,
    token_tile_image,
)
from vision.synthetic.things import with_thing

__all__ = [
    "BACKGROUNDS",
    "KIT_PRINTS",
    "ALL_CONDITIONS",
    "LIGHT_CONDITIONS",
    "PLAY_TINT_BGR",
    "REAL_CARDS",
    "TABLE_KINDS",
    "TOKEN_TILE_MM",
    "CardFace",
    "CardPlacement",
    "HandPlacement",
    "Lighting",
    "PinholeView",
    "Scene",
    "SyntheticScene",
    "TokenPlacement",
    "apply_lighting",
    "camera_homography",
    "cut_out",
    "draw_card",
    "hand_outline_mm",
    "random_lighting",
    "real_card_faces",
    "render_flat_view",
    "render_scene",
    "render_table_scene",
    "render_table_texture",
    "scene_condition",
    "table_texture",
    "token_tile_image",
    "with_shadow_of",
    "with_thing",
]
