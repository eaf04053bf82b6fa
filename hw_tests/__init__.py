"""Hardware test harness and MCU simulator (not yet built: see the firmware_bridge issue)."""
