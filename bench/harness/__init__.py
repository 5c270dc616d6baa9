"""Scripted players, scripted rounds and rendered tables: the harness of the round bench and the tests."""
