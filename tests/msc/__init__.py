"""Tests of Minimal Space Combat, one file per topic; each test cites the MSC section it checks."""
