# The stm32f405 board: the core driving a real table from an STM32F405VGT6 (pins.h, firmware/README.md "Pin map").
# It builds here; it runs only on the chip (flash build/stm32f405/mjtable-fw.bin, README "Flashing").
include boards/stm32f4/cortex.mk
BOARD_SRCS := $(STM32F4_SRCS) boards/stm32f405/main.c boards/stm32f405/motion.c boards/stm32f405/inputs.c \
	boards/stm32f405/dice.c boards/stm32f4/option_bytes.c
SIMULATED := 0
