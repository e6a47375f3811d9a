"""The designers' lab: many bot games on Dask, sweeps and tournaments, and reports.

:mod:`.games` plays one game and turns it into a row; :mod:`.runner` splits
jobs into seed ranges and runs them on a Dask cluster (or in this process);
:mod:`.plan` reads sweep and tournament files; :mod:`.report` draws the
plots. See docs/lab.md.
"""
