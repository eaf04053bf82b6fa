# Shared by the Cortex-M4 boards (qemu, stm32f405): Debian's gcc-arm-none-eabi with newlib-nano (memcpy/memset),
# no vendor SDK. The linker script's regions are the size budget (32 KB flash, 8 KB RAM): a bigger build fails to link.
BOARD_CC := arm-none-eabi-gcc
BOARD_CFLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -Os -g -ffunction-sections -fdata-sections \
	-Iboards/stm32f4
BOARD_LDFLAGS = -nostartfiles --specs=nano.specs -Tboards/stm32f4/stm32f405.ld -Wl,--gc-sections \
	-Wl,-Map=$(OUT)/$(BOARD).map
BOARD_LDLIBS :=
BOARD_TARGET := mjtable-fw.elf
BOARD_SIZE := arm-none-eabi-size
BOARD_DEPS := boards/stm32f4/stm32f405.ld
BOARD_POST = arm-none-eabi-objcopy -O binary $@ $(basename $@).bin
STM32F4_SRCS := boards/stm32f4/startup.c boards/stm32f4/clock.c boards/stm32f4/uart.c boards/stm32f4/reset.c
