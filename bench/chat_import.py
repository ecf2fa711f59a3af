"""Chat import: a generated ChatGPT export imported twice (the second run adds nothing).

    .venv/bin/python bench/chat_import.py [--chats N] [--exchanges E]

Runs on the embedded defaults (private PostgreSQL + pgvector, ONNX embedder, encryption on)
in a scratch data dir and prints one JSON object: seconds per run, messages per second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from memlane.container import open_memlane
from memlane.domain.model import Owner
from memlane.settings import Settings

TOPICS = ["a trip to Lisbon", "my sourdough starter", "the new puppy", "a job interview",
          "my knee injury", "learning the violin", "the garden", "our wedding budget"]


def chatgpt_export(chats: int, exchanges: int, seed: int = 7) -> list[dict[str, Any]]:
    """Conversations in ChatGPT's shape: a root, then user/assistant nodes in one branch."""
    rng = random.Random(seed)
    export = []
    for c in range(chats):
        topic = rng.choice(TOPICS)
        mapping: dict[str, Any] = {"root": {"id": "root", "message": None, "parent": None}}
        parent, t = "root", 1_700_000_000.0 + c * 3600
        for e in range(exchanges):
            for role, text in (("user", f"Question {e} about {topic}: what should I do next?"),
                               ("assistant", f"For {topic}, step {e}: take it slowly and "
                                             f"note what changes ({rng.randint(1, 999)}).")):
                node = f"{c}-{e}-{role}"
                t += 30
                mapping[node] = {"id": node, "parent": parent, "message": {
                    "id": node, "author": {"role": role}, "create_time": t,
                    "content": {"content_type": "text", "parts": [text]},
                }}
                parent = node
        export.append({"conversation_id": f"bench-{c}", "title": topic, "mapping": mapping,
                       "current_node": parent, "create_time": t})
    return export


async def run(chats: int, exchanges: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="memlane-bench-import-") as scratch:
        home = Path(scratch)
        path = home / "conversations.json"
        path.write_text(json.dumps(chatgpt_export(chats, exchanges)))
        settings = Settings(
            database={"data_dir": home / "data"},
            memory={"encryption_key_path": home / "key"},
            worker={"enabled": False},
        )
        owner = Owner("bench", "importer")
        async with open_memlane(settings) as memlane:
            started = time.perf_counter()
            first = await memlane.imports.import_file(owner, path, "chatgpt")
            first_s = time.perf_counter() - started
            started = time.perf_counter()
            second = await memlane.imports.import_file(owner, path, "chatgpt")
            second_s = time.perf_counter() - started
    messages = chats * exchanges * 2
    return {
        "chats": chats, "messages": messages, "memories_added": first.memories_added,
        "first_run_s": round(first_s, 2), "messages_per_s": round(messages / first_s, 1),
        "second_run_s": round(second_s, 2), "second_run_added": second.messages_added,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chats", type=int, default=100)
    parser.add_argument("--exchanges", type=int, default=5)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.chats, args.exchanges))))


if __name__ == "__main__":
    main()
