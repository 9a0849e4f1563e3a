"""The rules model: pure functions over frozen definitions. No file, network or terminal I/O here."""
