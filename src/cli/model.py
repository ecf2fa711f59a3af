"""`memlane prepare-model`: the ONNX embedder's int8 model derived into its cache ahead of time."""

from __future__ import annotations

import asyncio

import click

from memlane.cli.common import run_async


@click.command("prepare-model", short_help="Derive the ONNX model's int8 build now.")
@run_async
async def prepare_model() -> None:
    """Derive the onnx provider's int8 model into memory.embedding.model_cache_dir now.

    For image builds and read-only deployments: a service started later finds it there
    instead of deriving it (~2 s) at startup. No database needed.
    """
    from memlane.composition.openers import prepare_embedding_model

    path = await asyncio.to_thread(prepare_embedding_model)
    if path is None:
        click.echo("prepare-model: nothing to prepare (memory.embedding.provider is not onnx)")
    else:
        click.echo(f"prepare-model: {path}")
