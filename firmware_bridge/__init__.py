"""Host side of the table MCU link and GPIO (not yet built: see the firmware_bridge issue)."""
