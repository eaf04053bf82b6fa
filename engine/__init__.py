"""The rules engine: tiles, table procedure, hand analysis, rulesets, referee and match. Pure, no I/O."""
