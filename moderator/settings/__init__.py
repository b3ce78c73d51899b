"""Settings: the deployment (`config`), each game's own settings (`game`), the deadline
rule a GM writes (`deadline_rule`) and the game tables with the GM's overrides (`tables`)."""
