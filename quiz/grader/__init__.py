"""Grading of coding exercises: a warm worker process forks one limited child per check."""
