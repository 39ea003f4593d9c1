"""model.outputs: the model's files read back, each failure a TableError whose state says why."""

from __future__ import annotations

import json

import pytest

from emogi.tables import TableError
from model import outputs
from model.predict import OUT_COLUMNS


def test_prediction_columns_are_what_predict_writes():
    assert set(outputs.PREDICTION_COLUMNS) <= set(OUT_COLUMNS)


@pytest.mark.parametrize("read", [outputs.read_parameters, outputs.read_predictions, outputs.read_summary])
def test_missing_file(read, tmp_path):
    with pytest.raises(TableError) as e:
        read(tmp_path / "absent")
    assert e.value.state == "missing"


def test_invalid_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for read in (outputs.read_parameters, outputs.read_summary):
        with pytest.raises(TableError) as e:
            read(bad)
        assert e.value.state == "invalid"
    incomplete = tmp_path / "parameters.json"
    incomplete.write_text(json.dumps({"W_gbps": {"value": 1.0}}))
    with pytest.raises(TableError, match="lacks") as e:
        outputs.read_parameters(incomplete)
    assert e.value.state == "invalid"
    predictions = tmp_path / "predictions.csv"
    predictions.write_text("graph,measured_ms\ng,1.0\n")
    with pytest.raises(TableError, match="lacks columns") as e:
        outputs.read_predictions(predictions)
    assert e.value.state == "columns"
