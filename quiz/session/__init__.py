"""Joins the question bank and the progress store by stable ids: what to show next, and what it says."""
