"""Intake: turn a raw player email into order text and routing facts.

``extract`` reads bytes the way a human GM would (one text, notes about what was
ignored); ``route`` finds the game and the player's directives in that text.
Neither module does I/O: fetching, spooling and receipts live elsewhere.
"""
