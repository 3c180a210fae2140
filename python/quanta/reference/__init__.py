"""Pure-Python reference implementations of the rules, one file per game, used as test oracles."""
