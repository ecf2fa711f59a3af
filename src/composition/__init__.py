"""What the composition root (`memlane.container`) is built from, and the CLI's narrow openings."""
