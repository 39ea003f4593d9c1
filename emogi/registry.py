"""The study's vocabulary (emogi/registry.yaml), read and checked once: algorithms, variants, memory modes, auto
orders and edge widths, which combinations apply, and how figures draw each name.

emogi.schema and figures.style read it through `vocabulary()`; emogi.registry_codegen writes the C++ header and
the config schema's enums from it. EMOGI_REGISTRY names another file (tests add a dummy variant that way).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path

import yaml

DEFAULT_PATH = Path(__file__).with_name("registry.yaml")
ORIGINS = ("paper", "artifact", "project")
STYLE_KEYS = {"label", "tick", "short", "color", "hatch", "marker"}


class RegistryError(ValueError):
    """The registry file is malformed; the message names the entry and what is wrong."""


@dataclass(frozen=True)
class Algorithm:
    name: str
    enum: str
    label: str
    rooted: bool
    weight_bytes: int
    variants: tuple[str, ...]
    requires: dict = field(default_factory=dict)  # requirement -> why it matters
    streamed: tuple[str, ...] = ()  # the variants the streamed mode runs (streamed_lists.cuh)


@dataclass(frozen=True)
class Variant:
    name: str
    enum: str
    origin: str
    access: bool  # an access policy (access.cuh) rather than an algorithm's own kernel
    description: str
    in_lists: bool = False  # reads in-neighbours: a directed graph's from its transpose file (G.t.csr)
    requires: dict = field(default_factory=dict)
    style: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Mode:
    name: str
    enum: str
    origin: str
    description: str
    zero_copy: bool = False
    host_reads: bool = False
    managed: bool = False
    migrates: bool = False
    micro: bool = False
    needs: str = ""  # the option a run in this mode cannot do without ("" for none)
    style: dict = field(default_factory=dict)


@dataclass(frozen=True)
class AutoOrder:
    name: str
    enum: str
    description: str


@dataclass(frozen=True)
class ModeSelector:
    """A name that picks one of several memory modes per run by the model (model/select.py); never a mode of the
    binary, so it is not in the C++ names."""

    name: str
    origin: str
    description: str
    candidates: tuple[str, ...]


@dataclass(frozen=True)
class Regime:
    name: str
    label: str
    description: str


@dataclass(frozen=True)
class Vocabulary:
    requirements: dict  # requirement -> the property a graph that fails it has
    algorithms: tuple[Algorithm, ...]
    variants: tuple[Variant, ...]
    modes: tuple[Mode, ...]
    auto_orders: tuple[AutoOrder, ...]
    edge_bytes: tuple[int, ...]
    regimes: tuple[Regime, ...] = ()
    mode_selectors: tuple[ModeSelector, ...] = ()

    def names(self, kind: str, **where) -> tuple[str, ...]:
        """Names of `kind` (algorithms, variants, modes, auto_orders) in registry order, filtered by attributes."""
        return tuple(e.name for e in getattr(self, kind) if all(getattr(e, k) == v for k, v in where.items()))

    def variant(self, name: str) -> Variant:
        return {v.name: v for v in self.variants}[name]

    def variants_of(self) -> dict[str, tuple[str, ...]]:
        return {a.name: a.variants for a in self.algorithms}

    def streamed_of(self) -> dict[str, tuple[str, ...]]:
        """algorithm -> the variants the streamed mode runs (the rest are refused in that mode)."""
        return {a.name: a.streamed for a in self.algorithms}

    def styled(self, kind: str, key: str, names=None) -> dict:
        """name -> style[key] for the entries of `kind` that have it (in registry order, limited to `names`)."""
        entries = [e for e in getattr(self, kind) if key in e.style and (names is None or e.name in names)]
        return {e.name: e.style[key] for e in entries}


def _entries(raw: dict, key: str) -> list[dict]:
    items = raw.get(key)
    if not isinstance(items, list) or not items:
        raise RegistryError(f"'{key}' must be a non-empty list")
    for item in items:
        if not isinstance(item, dict) or "name" not in item or "enum" not in item:
            raise RegistryError(f"every entry of '{key}' needs a name and an enum (got {item!r})")
    for attr in ("name", "enum"):
        seen = [item[attr] for item in items]
        dupes = sorted({x for x in seen if seen.count(x) > 1})
        if dupes:
            raise RegistryError(f"'{key}' repeats {attr} {dupes}")
    return items


def _build(cls, item: dict, where: str):
    try:
        return cls(**item)
    except TypeError as e:
        raise RegistryError(f"{where} '{item.get('name')}': {e}") from None


def _check(v: Vocabulary) -> None:
    variants = set(v.names("variants"))
    for a in v.algorithms:
        unknown = [x for x in a.variants if x not in variants]
        if unknown:
            raise RegistryError(f"algorithm '{a.name}' lists unknown variants {unknown}")
        if set(a.streamed) - set(a.variants):
            raise RegistryError(
                f"algorithm '{a.name}' streams variants it lacks {sorted(set(a.streamed) - set(a.variants))}"
            )
    for entry in (*v.algorithms, *v.variants):
        unknown = set(entry.requires) - set(v.requirements)
        if unknown:
            raise RegistryError(f"'{entry.name}' requires {sorted(unknown)}, not under 'requirements'")
    for entry in (*v.variants, *v.modes):
        if entry.origin not in ORIGINS:
            raise RegistryError(f"'{entry.name}': origin '{entry.origin}' is not one of {ORIGINS}")
        if set(entry.style) - STYLE_KEYS:
            raise RegistryError(f"'{entry.name}': unknown style keys {sorted(set(entry.style) - STYLE_KEYS)}")
    modes = v.names("modes")
    for s in v.mode_selectors:
        if s.name in modes or s.name in v.names("auto_orders"):
            raise RegistryError(f"mode selector '{s.name}' has the name of a memory mode or auto order")
        if not s.candidates or set(s.candidates) - set(modes):
            raise RegistryError(f"mode selector '{s.name}': candidates {list(s.candidates)} must be memory modes")
    if not v.edge_bytes or any(b not in (4, 8) for b in v.edge_bytes):
        raise RegistryError("edge_bytes must list 4 and/or 8")


def load(path=None) -> Vocabulary:
    """Read and check a registry file (default: EMOGI_REGISTRY, else emogi/registry.yaml)."""
    path = Path(path or os.environ.get("EMOGI_REGISTRY") or DEFAULT_PATH)
    try:
        raw = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as e:
        raise RegistryError(f"cannot read the registry {path}: {e}") from None
    vocab = Vocabulary(
        requirements=dict(raw.get("requirements") or {}),
        algorithms=tuple(
            _build(
                Algorithm,
                {**a, "variants": tuple(a.get("variants", ())), "streamed": tuple(a.get("streamed", ()))},
                "algorithm",
            )
            for a in _entries(raw, "algorithms")
        ),
        variants=tuple(_build(Variant, v, "variant") for v in _entries(raw, "variants")),
        modes=tuple(_build(Mode, m, "mode") for m in _entries(raw, "modes")),
        auto_orders=tuple(_build(AutoOrder, o, "auto order") for o in _entries(raw, "auto_orders")),
        edge_bytes=tuple(raw.get("edge_bytes") or ()),
        regimes=tuple(_build(Regime, r, "regime") for r in raw.get("regimes") or ()),
        mode_selectors=tuple(
            _build(ModeSelector, {**s, "candidates": tuple(s.get("candidates", ()))}, "mode selector")
            for s in raw.get("mode_selectors") or ()
        ),
    )
    _check(vocab)
    return vocab


@functools.cache
def vocabulary() -> Vocabulary:
    """The registry this process uses (read once)."""
    return load()
