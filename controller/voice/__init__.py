"""The table's voice: claims and verdicts said aloud on the Pi's audio output (``[voice]``, issue 19).

``phrases``: what is said in each language; ``calls``: which moments of the service's events are said;
``speaker``: espeak-ng and the audio output; ``voice``: the listener that queues and speaks them off the control loop.
"""
