"""``python -m moderator``: the same command line as the ``moderator`` script."""

from moderator.cli import main

if __name__ == "__main__":
    main()
