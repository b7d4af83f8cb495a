"""Game review: every decision of a finished game valued by the hard computer (docs/review.md).

The pure parts (table, evaluate, grades, plan) import no Django, like the engine and the
bots they play through; the rest (services, tasks, page) stores and shows the reviews.
"""
