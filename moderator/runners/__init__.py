"""What keeps the service going: the scheduler and its jobs (deadlines, reminders,
announcements), the loops that read the inbox and empty the outbox, and `serve`."""
