"""Exports for other tools: PNG per card, print-on-demand PDFs per deck, Tabletop Simulator saved objects.

Every export starts from a game's `ExportSet` (its decks, board, mats and tokens, as the same vector
pieces the printed kit uses) and draws them through the PDF renderer; images are rasterised from those
PDF pages by pdfium, so the PNGs look exactly like the printed cards.
"""
