"""The learned supersession judge's shipped weights, read from the package."""
