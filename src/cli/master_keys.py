"""`memlane keys rotate-master` and `memlane keys migrate`: the master key and data keys."""

from __future__ import annotations

import json

import click

from memlane.cli.common import EXIT_ERROR, err, run_async
from memlane.cli.keys import keys


@keys.command("rotate-master", short_help="Rewrap every data key by a new master key.")
@click.option("--batch", default=500, show_default=True, type=click.IntRange(1, 100_000))
@click.option("--max-batches", default=None, type=click.IntRange(1), hidden=True)
@run_async
async def rotate_master(batch: int, max_batches: int | None) -> None:
    """Rewrap every data key by a new master key, online; memories are not re-encrypted.

    The first run writes the new key to `<key file>.next`; a rerun (after an interruption)
    continues with it. At the end the data records the new key, the old file is kept as
    `<key file>.previous` and the new one takes its place. Prints a JSON summary.
    """
    from memlane.composition.openers import open_master_rotation

    # A wrong or missing key exits 78 (EX_CONFIG) with its message, as at every startup.
    async with open_master_rotation() as job:
        if job.catching_up:
            err.print(f"this database's keys are wrapped by {job.new_key_path}.previous (it "
                      "was restored from before the last rotation): rewrapping them by the "
                      f"key file in use (fingerprint {job.new_fingerprint[:16]}...)")
        else:
            err.print(f"rotating to the master key in {job.new_key_path}.next "
                      f"(fingerprint {job.new_fingerprint[:16]}...)")
        report = await job.rotation.run(
            job.old_fingerprint, job.new_fingerprint, batch=batch, max_batches=max_batches,
            progress=lambda done: err.print(f"rotate-master: {done} keys rewrapped"),
        )
    click.echo(json.dumps({
        "master_key_id": report.master_id, "rewrapped": report.rewrapped,
        "remaining": report.remaining, "finished": report.finished,
    }))
    if not report.finished:
        err.print("rotate-master: interrupted; run it again to continue")
        raise SystemExit(EXIT_ERROR)
    if report.remaining:
        err.print(f"rotate-master: {report.remaining} keys were created meanwhile by processes "
                  "still on the old key: restart them, then run rotate-master again")


@keys.command("migrate", short_help="Re-seal what was sealed before data keys.")
@click.option("--batch", default=500, show_default=True, type=click.IntRange(1, 100_000))
@run_async
async def migrate_keys(batch: int) -> None:
    """Re-seal every version-1 ciphertext (sealed with the master key itself) under its
    owner's data key, so erasing a user shreds it. Resumable, safe while memlane runs.
    Prints a JSON summary. `memlane upgrade` runs this too, after the migrations and
    `seal-existing`."""
    from memlane.composition.openers import open_key_migration

    async with open_key_migration() as migration:
        report = await migration.run(
            batch=batch,
            progress=lambda column, done: err.print(f"keys migrate: {column}: {done} re-sealed"),
        )
    click.echo(json.dumps({"resealed": report.resealed, "total": report.total,
                           "unreadable": report.unreadable}))
    if report.unreadable:
        err.print(f"keys migrate: {report.unreadable} ciphertexts do not decrypt and were left "
                  "as they are: see `memlane verify`")
        raise SystemExit(EXIT_ERROR)
