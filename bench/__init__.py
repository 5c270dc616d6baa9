"""Benchmarks that print figures, and the harness they share with the tests."""
