"""Pure rules of Eleusis (docs/rules.md): cards, the rule language, the round, scoring.

Standard library only: no cv2, numpy, files, clock or sound (tests/engine/test_purity.py).
"""
