"""The `quiz` command line (click); subcommands load lazily so `quiz --help` stays fast."""
