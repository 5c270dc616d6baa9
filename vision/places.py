"""The one tolerance of every place memory: kept apart from the geometry (which needs OpenCV
and numpy) so that the pure turn machine can share it without loading them."""

__all__ = ["SAME_PLACE_MM"]

# A card found within this distance (mm, centre to centre) of where a card lay a frame
# before, with nothing moving over it, lies at the same place: the one tolerance of every
# place memory (the reader pooling its looks at a card, the turn keeping a card's reading).
# The table homography places a still card within a few millimetres from frame to frame,
# and a camera nudged and re-anchored within about 10 mm; two cards that lie side by side
# without overlapping have centres at least a card's width (63.5 mm) apart, so a quarter of
# it never takes a neighbour for the same card.
SAME_PLACE_MM = 15.0
