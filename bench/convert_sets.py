"""Turn LongMemEval_S or REALTALK into LoCoMo's shape, so bench/locomo.py reads them (stdlib only).

    python bench/convert_sets.py longmemeval SRC OUT.json [--split dev|all]
        SRC: longmemeval_s*.json (a list) or a folder of one-question JSON files (the
        hussainzs/Memoria copy, `evaluations/data/lme_jsons/`, the files with a 2-digit
        prefix). One sample per question, its own haystack (~48 sessions, ~490 turns).
        `dev`: the development sample, 100 questions stratified by type with seed 0.
    python bench/convert_sets.py realtalk DATA_DIR OUT.json [--split dev|all]
        DATA_DIR: danny911kr/REALTALK's data/ folder (Chat_*.json). `dev`: Chat_1 to Chat_5.

LongMemEval types take LoCoMo's five category slots: multi-session -> 1, temporal-reasoning
-> 2, knowledge-update -> 3, single-session-user/-assistant/-preference -> 4, every abstention
(`*_abs`) -> 5 (reported apart); `type` keeps the original, `evidence` the turns marked
has_answer, `evidence_sessions` the answer sessions. REALTALK keeps its categories (1 multi-hop,
2 temporal, 3 commonsense); its dia_ids are renumbered DN:i by session (the originals count by
day, with gaps), ranges "D20:18-D20:24" expanded, evidence naming no turn dropped. Blank turns
are dropped, NULs removed, turns over 32,000 bytes cut (memlane refuses more than 32 KiB).
The development files are the same, byte for byte, as the ones the project's figures are on;
`--split all` is for reproducing on the full public sets (the project's held-out gate: never
tune on it).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

MAX_BYTES = 32_000
LME_CATEGORY = {
    "multi-session": 1, "temporal-reasoning": 2, "knowledge-update": 3,
    "single-session-user": 4, "single-session-assistant": 4, "single-session-preference": 4,
}
DEV_SAMPLE, DEV_SEED = 100, 0  # LongMemEval_S: 100 questions, stratified by type
DEV_CHATS = range(1, 6)  # REALTALK: Chat_1 .. Chat_5
_RANGE = re.compile(r"D(\d+):(\d+)\s*-\s*(?:D(\d+):)?(\d+)")
_ONE = re.compile(r"D:?(\d+)\s*[:;]\s*0*(\d+)")


def locomo_date(moment: datetime) -> str:
    """LoCoMo's '1:56 pm on 8 May, 2023'."""
    hour = moment.hour % 12 or 12
    ampm = "am" if moment.hour < 12 else "pm"
    return f"{hour}:{moment.minute:02d} {ampm} on {moment.day} {moment:%B}, {moment.year}"


def clean_text(text: str | None, fixes: Counter[str]) -> str | None:
    text = (text or "").replace("\x00", "").strip()
    if not text:
        fixes["blank turns dropped"] += 1
        return None
    raw = text.encode("utf-8")
    if len(raw) > MAX_BYTES:
        fixes[f"turns cut to {MAX_BYTES} bytes"] += 1
        text = raw[:MAX_BYTES].decode("utf-8", errors="ignore")
    return text


def lme_type(item: dict[str, Any]) -> str:
    return item["question_type"] + ("_abs" if str(item["question_id"]).endswith("_abs") else "")


def _lme_moment(date: str) -> datetime:
    return datetime.strptime(date[:10] + date[-5:], "%Y/%m/%d%H:%M")


def lme_sample(item: dict[str, Any], fixes: Counter[str]) -> dict[str, Any]:
    sessions = sorted(
        zip(item["haystack_dates"], item["haystack_session_ids"], item["haystack_sessions"],
            strict=True),
        key=lambda s: _lme_moment(s[0]),
    )
    conversation: dict[str, Any] = {"speaker_a": "user", "speaker_b": "assistant"}
    evidence: list[str] = []
    evidence_sessions: list[str] = []
    for number, (date, session_id, turns) in enumerate(sessions, start=1):
        conversation[f"session_{number}_date_time"] = locomo_date(_lme_moment(date))
        rows: list[dict[str, Any]] = []
        for turn in turns:
            text = clean_text(turn["content"], fixes)
            if text is None:
                if turn.get("has_answer"):
                    fixes["blank evidence turns lost"] += 1
                continue
            dia_id = f"D{number}:{len(rows) + 1}"
            rows.append({"speaker": turn["role"], "dia_id": dia_id, "text": text})
            if turn.get("has_answer"):
                evidence.append(dia_id)
        conversation[f"session_{number}"] = rows
        if session_id in item["answer_session_ids"]:
            evidence_sessions.append(f"session_{number}")
    kind = lme_type(item)
    return {
        "sample_id": f"lme-{item['question_id']}",
        "conversation": conversation,
        "qa": [{
            "question": item["question"], "answer": str(item["answer"]), "evidence": evidence,
            "category": 5 if kind.endswith("_abs") else LME_CATEGORY[item["question_type"]],
            "type": kind, "question_id": item["question_id"],
            "question_date": item.get("question_date"), "evidence_sessions": evidence_sessions,
        }],
    }


def stratified(items: list[dict[str, Any]], n: int, seed: int) -> list[dict[str, Any]]:
    """n items, each type getting its share (largest remainders), drawn with `seed`."""
    groups: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        groups[lme_type(item)].append(item)
    quotas = {t: n * len(g) / len(items) for t, g in groups.items()}
    take = {t: int(q) for t, q in quotas.items()}
    by_remainder = sorted(quotas, key=lambda t: quotas[t] - take[t], reverse=True)
    for t in by_remainder[: n - sum(take.values())]:
        take[t] += 1
    rng = random.Random(seed)
    chosen = []
    for t in sorted(groups):
        chosen += rng.sample(sorted(groups[t], key=lambda i: i["question_id"]), take[t])
    return sorted(chosen, key=lambda i: i["question_id"])


def longmemeval(src: Path, dev: bool, fixes: Counter[str]) -> list[dict[str, Any]]:
    if src.is_dir():
        items = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(src.glob("*.json"))]
    else:
        items = json.loads(src.read_text(encoding="utf-8"))
    if dev:
        items = stratified(items, DEV_SAMPLE, DEV_SEED)
    return [lme_sample(item, fixes) for item in items]


def realtalk_evidence(raw: list[Any]) -> list[str]:
    found: list[str] = []
    for item in raw:
        text = str(item)
        for m in _RANGE.finditer(text):
            day, first, day2, last = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))
            if day2 in (None, day) and first <= last:
                found += [f"D{int(day)}:{i}" for i in range(first, last + 1)]
        text = _RANGE.sub(" ", text)
        found += [f"D{int(d)}:{int(i)}" for d, i in _ONE.findall(text)]
    return list(dict.fromkeys(found))


def realtalk_sample(path: Path, fixes: Counter[str]) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    numbers = sorted(int(k.split("_")[1]) for k in data if re.fullmatch(r"session_\d+", k))
    conversation: dict[str, Any] = {
        "speaker_a": data["name"]["speaker_1"], "speaker_b": data["name"]["speaker_2"],
    }
    new_id: dict[str, str] = {}
    for position, number in enumerate(numbers, start=1):
        moment = datetime.strptime(data[f"session_{number}_date_time"], "%d.%m.%Y, %H:%M:%S")
        conversation[f"session_{position}_date_time"] = locomo_date(moment)
        rows: list[dict[str, Any]] = []
        for turn in data[f"session_{number}"]:
            text = clean_text(turn.get("clean_text") or turn.get("text") or "", fixes)
            if text is None:
                continue
            row = {"speaker": turn["speaker"], "dia_id": f"D{position}:{len(rows) + 1}",
                   "text": text, "orig_dia_id": turn["dia_id"]}
            if turn.get("blip_caption"):
                row["blip_caption"] = turn["blip_caption"]
            new_id[turn["dia_id"]] = row["dia_id"]
            rows.append(row)
        conversation[f"session_{position}"] = rows
    names = {1: "multi-hop", 2: "temporal", 3: "commonsense"}
    qa = []
    for item in data["qa"]:
        wanted = realtalk_evidence(item.get("evidence", []))
        kept = [new_id[e] for e in wanted if e in new_id]
        fixes["evidence ids dropped (not a turn)"] += len(wanted) - len(kept)
        category = int(item["category"])
        qa.append({"question": item["question"], "answer": str(item.get("answer", "")),
                   "evidence": kept, "category": category,
                   "type": names.get(category, str(category)),
                   "orig_evidence": item.get("evidence", [])})
    return {"sample_id": "realtalk-" + path.stem, "conversation": conversation, "qa": qa}


def realtalk(src: Path, dev: bool, fixes: Counter[str]) -> list[dict[str, Any]]:
    chats = sorted(src.glob("Chat_*.json"), key=lambda p: int(p.stem.split("_")[1]))
    return [realtalk_sample(p, fixes) for p in chats
            if not dev or int(p.stem.split("_")[1]) in DEV_CHATS]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", choices=["longmemeval", "realtalk"])
    parser.add_argument("src", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--split", choices=["dev", "all"], default="dev")
    args = parser.parse_args(argv)
    fixes: Counter[str] = Counter()
    convert = longmemeval if args.dataset == "longmemeval" else realtalk
    samples = convert(args.src, args.split == "dev", fixes)
    args.out.write_text(json.dumps(samples, ensure_ascii=False), encoding="utf-8")
    qa = [q for s in samples for q in s["qa"]]
    print(json.dumps({
        "samples": len(samples), "questions": len(qa),
        "by_category": dict(sorted(Counter(q["category"] for q in qa).items())),
        "fixes": dict(fixes), "bytes": args.out.stat().st_size,
    }, indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
