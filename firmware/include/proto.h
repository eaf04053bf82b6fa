/* The numbers of PROTOCOL.md §2-§4, written once for the core, the simulated mechanism and the boards. */
#ifndef MJ_PROTO_H
#define MJ_PROTO_H

#define PROTO_MAJOR 1
#define PROTO_MINOR 1 /* 1.1: fault codes 8-10, results 8-9, DIAGNOSTIC 15 (the watchdog test) */

#define FRAME_SYNC 0x7E
#define FRAME_MIN_LEN 2  /* SEQ + TYPE */
#define FRAME_MAX_LEN 60 /* so that a whole frame fits in 64 bytes */
#define FRAME_MAX_PAYLOAD (FRAME_MAX_LEN - FRAME_MIN_LEN)
#define FRAME_MAX_BYTES (FRAME_MAX_LEN + 4) /* sync, LEN, CRC_HI, CRC_LO */

#define SEATS 4
#define WIND_LAMP 4 /* the round-wind lamp, after the four seat lamps */
#define LAMPS 5
#define NO_SIDE 0xFF

enum msg_type {
    MSG_IDENTIFY = 0x01,
    MSG_PING = 0x02,
    MSG_EMERGENCY_STOP = 0x03,
    MSG_STATUS_REQUEST = 0x04,
    MSG_CONFIGURE = 0x10,
    MSG_CLEAR_FAULT = 0x11,
    MSG_HATCH = 0x12,
    MSG_SHUFFLE = 0x13,
    MSG_BUILD_WALLS = 0x14,
    MSG_LIFT_WALLS = 0x15,
    MSG_LOWER_PLATFORMS = 0x16,
    MSG_ROLL_DICE = 0x17,
    MSG_LAMP = 0x18,
    MSG_DEALER = 0x19,
    MSG_DIAGNOSTIC = 0x1A,
    MSG_NOP = 0x1B,
    MSG_ACK = 0x80,
    MSG_NAK = 0x81,
    MSG_IDENTITY = 0x82,
    MSG_SNAPSHOT = 0x83,
};

enum phase {
    PHASE_IDLE,
    PHASE_INTAKE_OPEN,
    PHASE_SHUFFLING,
    PHASE_STACKING,
    PHASE_WALLS_READY,
    PHASE_LIFTING,
    PHASE_LIFTED,
    PHASE_LOWERING,
};

enum result {
    RESULT_OK,
    RESULT_BUSY,
    RESULT_FAULTED,
    RESULT_UNCONFIGURED,
    RESULT_BAD_ARGUMENT,
    RESULT_DIAGNOSTIC,
    RESULT_BAD_CHECKSUM,
    RESULT_UNKNOWN_COMMAND,
    RESULT_DRIVER_FAULT,    /* CLEAR_FAULT refused: a motor driver still reports a fault */
    RESULT_SENSOR_CONFLICT, /* CLEAR_FAULT refused: two end switches that exclude each other are both closed */
};

enum nak_reason { NAK_OUT_OF_ORDER, NAK_CORRUPT, NAK_UNSYNCED };

enum fault_kind {
    FAULT_NONE,
    FAULT_JAM,
    FAULT_MISCOUNT,
    FAULT_OVERCURRENT,
    FAULT_TRAVEL_TIMEOUT,
    FAULT_MCU_RESET,
    FAULT_HOST_SILENT,
    FAULT_EMERGENCY_STOP,
    FAULT_RUN_TIMEOUT,  /* the disc, the dice or a whole wall ran past its time limit */
    FAULT_OVERTRAVEL,   /* a stepper's move reached the board's step limit with its end switch open */
    FAULT_DRIVER_FAULT, /* a motor driver reports a fault while its motors are off */
};

enum mechanism {
    MECH_NONE,
    MECH_HATCH,
    MECH_DISC,
    MECH_RING,
    MECH_STACKER,
    MECH_FEEDER,
    MECH_LIFT,
    MECH_DICE,
};

enum reset_reason {
    RESET_NONE,
    RESET_POWER_ON,
    RESET_WATCHDOG,
    RESET_BROWN_OUT,
    RESET_SOFTWARE,
    RESET_PIN,
};

/* DIAGNOSTIC test 15 stops the main loop: the watchdog must reset the MCU (reset reason WATCHDOG). */
#define DIAG_WATCHDOG 15

enum lamp_pattern { LAMP_OFF, LAMP_STEADY, LAMP_BLINK };

enum capability {
    CAP_TWO_SETS = 1,
    CAP_DICE = 2,
    CAP_LAMPS = 4,
    CAP_DIAGNOSTIC = 8,
    CAP_TILE_COUNT = 16,
    CAP_JAM_DETECT = 32,
};

enum state_flag {
    FLAG_CONFIGURED = 1,
    FLAG_DIAGNOSTIC = 2,
    FLAG_MOTORS_ON = 4,
    FLAG_MIXED = 8,
    FLAG_MODE_PENDING = 16,
};

#define SENSOR_LIFT_UP(side) (1u << (side))
#define SENSOR_LIFT_DOWN(side) (1u << (4 + (side)))
#define SENSOR_ALL_LIFT_UP 0x000Fu
#define SENSOR_ALL_LIFT_DOWN 0x00F0u
#define SENSOR_HATCH_OPEN (1u << 8)
#define SENSOR_HATCH_CLOSED (1u << 9)
#define SENSOR_BELT_FULL (1u << 10)
#define SENSOR_COUNTER (1u << 11)
#define SENSOR_KEY(seat) (1u << (12 + (seat)))

/* Payload sizes of the messages with a fixed layout (§4). */
#define IDENTIFY_SIZE 3
#define CONFIGURE_SIZE 13
#define LAMP_SIZE 4
#define DEALER_SIZE 2
#define IDENTITY_SIZE 41
#define SNAPSHOT_SIZE 26
#define FIRMWARE_NAME_SIZE 16
#define BOARD_ID_SIZE 12

#endif
