"""Host side of the table MCU link (PROTOCOL.md), the typed table API, and the Pi's own pins.

Public API:

- ``firmware_bridge.table.Table``: ``Table.connect(BridgeConfig())`` then ``open_hatch``, ``close_hatch``,
  ``shuffle``, ``build_walls``, ``lift_walls``, ``lower_platforms``, ``roll_dice``, ``set_lamp``, ``set_dealer``,
  ``diagnostic``, ``reconfigure``, ``clear_fault``, ``emergency_stop``; ``state`` is the latest snapshot;
- ``firmware_bridge.link.Link``: the reliable link under it (sequence/ack, retransmit, handshake, heartbeat);
- ``firmware_bridge.gpio.Panel``: dealer lamps, seat buttons, lift switch and interlock on a given pin factory;
- ``firmware_bridge.config.BridgeConfig``: the ``[bridge]`` configuration (link, MCU, GPIO pins);
- ``firmware_bridge.messages`` and ``firmware_bridge.framing``: the catalogue and the codec;
- ``firmware_bridge.errors``: ``BridgeError`` and its kinds.

Concurrency model: **threads**, not asyncio. pyserial's ports block, and the asyncio wrapper (pyserial-asyncio)
is not a dependency; gpiozero calls back on its own threads anyway. So the link owns two daemon threads: a reader
that decodes every byte as it arrives (an ACK wakes its waiting caller at once, which keeps the round trip near
the pty's floor) and a keeper that sends heartbeats and re-handshakes after a reset. Callers block: a command
holds one lock while it is sent and retransmitted (stop-and-wait, so commands reach the MCU in call order); the
emergency stop takes only the write lock and so never waits behind it. ``close()`` joins both threads. An asyncio
service calls the blocking API through ``asyncio.to_thread`` and marshals snapshot listeners and GPIO callbacks
with ``loop.call_soon_threadsafe``.
"""
