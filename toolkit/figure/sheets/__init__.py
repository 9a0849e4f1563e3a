"""Sheets both ways: `duelkit import` (read.py reads files, foreign.py and native.py convert rows to data,
project.py writes the project) and `duelkit export csv|xlsx` (native.py turns data into tables, write.py
writes them). `columns.py` guesses the columns of foreign sheets; `sheet_map.py` points validation
problems back at sheet cells."""
