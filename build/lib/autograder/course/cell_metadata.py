"""nbgrader's check of the cells' nbgrader metadata, with each distinct metadata checked once
per process instead of once per cell of every notebook.

nbgrader's CheckCellMetadata builds a new validator for every notebook and calls
`jsonschema.validate` for every cell, which checks the schema itself against JSON Schema's
meta-schema each time: about 0.1 CPU s a notebook in grading, for cells whose metadata is the
release's in every submission. Whether a cell's metadata is valid depends on that metadata
and the cell's type alone (the cell's text appears in the error messages only), so a pair
found valid once is valid again: the verdicts are nbgrader's own, the duplicate grade ids of
a notebook are still checked on every notebook, and a cell whose type changed is checked
(and warned about) every time.
"""

from __future__ import annotations

import json

from nbgrader.nbgraderformat import MetadataValidator, ValidationError
from nbgrader.preprocessors import CheckCellMetadata as NbgraderCheckCellMetadata

REMEMBERED = 10_000  # distinct valid metadata kept per process, then forgotten all at once


class RememberingValidator(MetadataValidator):
    """nbgrader's validator that does not check again a (metadata, cell type) it found valid."""

    def __init__(self):
        super().__init__()
        self.valid = set()

    def validate_cell(self, cell):
        meta = cell.metadata.get("nbgrader")
        if meta is None:
            return super().validate_cell(cell)
        key = (json.dumps(meta, sort_keys=True, default=repr), cell.cell_type)
        if key in self.valid:
            return None
        super().validate_cell(cell)
        if meta.get("cell_type", cell.cell_type) == cell.cell_type:
            if len(self.valid) >= REMEMBERED:
                self.valid.clear()
            self.valid.add(key)
        return None


VALIDATOR = None  # made at the first notebook: nbgrader reads three schema files for it


class CheckCellMetadata(NbgraderCheckCellMetadata):
    """nbgrader's CheckCellMetadata stage (same verdicts, same error) on one validator per
    process that remembers what it found valid."""

    def preprocess(self, nb, resources):
        global VALIDATOR
        if VALIDATOR is None:
            VALIDATOR = RememberingValidator()
        try:
            VALIDATOR.validate_nb(nb)
        except ValidationError:
            # nbgrader's stage logs the details and raises its own message: it does so here
            # by checking the notebook again with its own validator.
            return super().preprocess(nb, resources)
        return nb, resources
