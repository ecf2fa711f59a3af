"""Import adapters: chat exports of other assistants (ChatGPT, Claude) into ImportedChat values."""

from memlane.adapters.imports.reader import ExportFormat, parse_export, read_export

__all__ = ["ExportFormat", "parse_export", "read_export"]
