"""`memlane prepare-model`: the onnx provider's int8 models derived into their cache ahead."""

from __future__ import annotations

import asyncio
import time

import click

from memlane.cli.common import run_async


@click.command("prepare-model", short_help="Derive the ONNX models' int8 builds now.")
@click.option(
    "--model", "models", multiple=True, metavar="NAME",
    help="Only this model (repeatable): all-MiniLM-L6-v2, multilingual-e5-small. "
    "Default: every model the onnx provider ships.",
)
@run_async
async def prepare_model(models: tuple[str, ...]) -> None:
    """Derive the onnx provider's int8 models into memory.embedding.model_cache_dir now.

    For image builds and read-only deployments: a service started later finds them there
    instead of deriving one at startup (seconds for MiniLM, ~15-25 s for multilingual-e5-small),
    whichever memory.embedding.model it is set to. No database needed. Prints one line per
    model.
    """
    from memlane.composition.openers import onnx_model_names, prepare_embedding_model

    for model in models or onnx_model_names():
        started = time.perf_counter()
        path = await asyncio.to_thread(prepare_embedding_model, model)
        click.echo(f"prepare-model: {model} {path} ({time.perf_counter() - started:.1f} s)")
