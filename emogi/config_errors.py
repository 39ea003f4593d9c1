"""One line for a config that config/schema.yaml rejects, instead of the validator's dump of schema and config.

The Snakefile validates the config at start-up and passes a failure through `one_line`: an unknown key is named
with the closest valid key, a wrong value with the names that would do.
"""

from __future__ import annotations

import difflib


def _where(path) -> str:
    text = ""
    for p in path:
        text += f"[{p}]" if isinstance(p, int) else (f".{p}" if text else str(p))
    return text


def _validation_error(error):
    """The jsonschema ValidationError inside a snakemake WorkflowError (or the error itself)."""
    for candidate in (error, error.__cause__, error.__context__, *getattr(error, "args", ())):
        if hasattr(candidate, "validator") and hasattr(candidate, "path"):
            return candidate
    return None


def one_line(error, schema_file: str = "config/schema.yaml") -> str:
    """A one-line reason for a config validation failure."""
    e = _validation_error(error)
    if e is None:
        return f"config: {str(error).splitlines()[0] if str(error) else type(error).__name__}"
    where = _where(e.absolute_path)
    prefix = f"config key {where}" if where else "config"
    if e.validator == "additionalProperties" and isinstance(e.instance, dict):
        valid = sorted((e.schema.get("properties") or {}).keys())
        unknown = sorted(k for k in e.instance if k not in valid)
        key = unknown[0] if unknown else "?"
        close = difflib.get_close_matches(key, valid, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else f"; valid keys: {', '.join(valid)}"
        inside = f" in {where}" if where else ""
        return f"config: unknown key '{key}'{inside}{hint} (see {schema_file})"
    if e.validator == "enum":
        return f"{prefix}: {e.instance!r} is not one of {', '.join(map(str, e.validator_value))}"
    return f"{prefix}: {e.message}"
