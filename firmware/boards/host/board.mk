# The host board: the firmware as an ordinary Linux process on two pseudo-terminals (the host link and the side
# channel), with the simulated mechanism; what the tests and `python -m hw_tests --firmware host` run.
BOARD_CC := $(HOST_CC)
BOARD_CFLAGS := -O2 -g -D_DEFAULT_SOURCE
BOARD_LDFLAGS :=
BOARD_LDLIBS :=
BOARD_SRCS := boards/host/main.c
BOARD_TARGET := mjtable-fw
BOARD_SIZE := size
SIMULATED := 1
