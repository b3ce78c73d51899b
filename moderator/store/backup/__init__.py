"""A host's backup: one file that holds everything needed to bring the service back.

``moderator backup create`` writes a gzipped tar, mode 0600, named by the instant it was
taken (``moderator-backup-20261207T180000Z.tar.gz``):

* ``tables/NAME.jsonl``: every row of every table of the store, one JSON array a line
  after a first line naming the columns, read in ONE snapshot while `serve` keeps
  writing (SQLite: the online backup API copies the file under one read lock;
  PostgreSQL: one REPEATABLE READ, READ ONLY transaction).  Values are written as the
  database holds them (compressed columns stay compressed; bytes as base64, instants as
  ISO text), so a backup of a SQLite store restores into PostgreSQL and back
  (`restore`).  Only the tables our migrations make: APScheduler's job table is left out
  (`serve` derives its jobs from the games again), so is ``alembic_version``, which the
  manifest names, and so are another program's tables in a shared database;
* ``key``, only with ``--with-key``: the server key (`moderator.store.passwords`).  It
  is kept apart from the store on purpose (a copy of the store alone cannot test
  guesses of a password), so by default a backup holds only its fingerprint
  (``key_id`` in the manifest): back the key file up once, somewhere else; a restore
  checks that the key it finds is that one;
* ``archive/...``: the published newsletters, which outlive the outbox's compacted bodies;
* ``config.toml``: the settings file in use, for reference (a restore never writes it);
* ``manifest.json``, last: the format, when, which schema revision, and each member's
  SHA-256 and size (rows for a table), so `verify` proves a file whole before anyone
  relies on it.

The spool is not kept: every raw email it holds is also in the store (`ReceivedMessage`).
A backup holds every received email and the players' addresses, and with ``--with-key``
the key: keep it private.

The modules: `manifest` (what a backup is made of, and how values are written),
`create`, `verify` (every member proved against the manifest) and `restore`.
"""
