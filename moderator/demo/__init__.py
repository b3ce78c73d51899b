"""The demo: a whole En Garde! month by email on local Maildirs."""
