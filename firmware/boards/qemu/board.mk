# The qemu board: the Cortex-M4 build for `qemu-system-arm -M netduinoplus2` (STM32F405): the core with the simulated
# mechanism compiled in, SysTick time, the host link on USART1 (first -serial pty), the side channel on USART2
# (second -serial pty). What `python -m hw_tests --firmware qemu` runs.
include boards/stm32f4/cortex.mk
BOARD_SRCS := $(STM32F4_SRCS) boards/qemu/main.c
SIMULATED := 1
