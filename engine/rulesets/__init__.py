"""The rulesets, one module (or package) each: the interface they implement is ``engine.rulesets.base``, the
registry that knows them all by id is ``engine.rulesets.registry`` (``get_ruleset``, ``all_rulesets``).

This package imports nothing, so that importing a ruleset's module, or the interface, loads no other ruleset.
"""
