"""`python -m quiz` runs the command line."""

from quiz.cli.main import main

main()
