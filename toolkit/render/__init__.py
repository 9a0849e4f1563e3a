"""Rendering: a backend-neutral scene in millimetres, drawn by a PDF and an SVG renderer."""
