"""What sits on top of the composition root (`pbem.app`): the demo, the benches, and
playing the example campaigns. Only the `pbem` command and the tests import this; nothing
in core, rules, mail or reports does.
"""
