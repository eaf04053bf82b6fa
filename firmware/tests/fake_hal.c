/* The fake hardware layer of the unit tests (see fake_hal.h). */
#include "fake_hal.h"

#include <string.h>

#include "proto.h"

struct fake fake;
static unsigned tx_read;

void fake_reset(void)
{
    memset(&fake, 0, sizeof fake);
    fake.sensors = SENSOR_HATCH_CLOSED | SENSOR_ALL_LIFT_DOWN;
    tx_read = 0;
}

void fake_send(uint8_t seq, uint8_t type, const uint8_t *payload, uint8_t len)
{
    fake.rx_len += frame_encode(fake.rx + fake.rx_len, seq, type, payload, len);
}

void fake_send_raw(const uint8_t *data, unsigned len)
{
    memcpy(fake.rx + fake.rx_len, data, len);
    fake.rx_len += len;
}

bool fake_reply(struct frame *out, bool want_snapshot)
{
    static struct frame_reader reader;
    if (tx_read == 0)
        frame_reader_init(&reader);
    while (tx_read < fake.tx_len) {
        frame_reader_push(&reader, fake.tx[tx_read++]);
        while (frame_reader_next(&reader, out))
            if (want_snapshot || out->type != MSG_SNAPSHOT)
                return true;
    }
    return false;
}

void fake_clear_tx(void)
{
    fake.tx_len = 0;
    tx_read = 0;
}

uint64_t hal_time_us(void)
{
    return fake.now;
}

int hal_serial_getc(void)
{
    if (fake.rx_pos == fake.rx_len) {
        fake.rx_pos = fake.rx_len = 0;
        return -1;
    }
    return fake.rx[fake.rx_pos++];
}

void hal_serial_write(const uint8_t *data, uint8_t len)
{
    if (fake.tx_len + len <= sizeof fake.tx) {
        memcpy(fake.tx + fake.tx_len, data, len);
        fake.tx_len += len;
    }
}

void hal_lamp(uint8_t lamp, bool on)
{
    fake.lamp[lamp] = on;
}

void hal_watchdog_kick(void)
{
    fake.kicks++;
}

uint8_t hal_reset_reason(void)
{
    return RESET_POWER_ON;
}

const char *hal_board_id(void)
{
    return "UNIT-TEST";
}

uint8_t hal_reboot_requested(void)
{
    return 0;
}

void hal_motor(enum hal_motor motor, int8_t direction, uint8_t wall_tiles)
{
    fake.motor[motor] = direction;
    if (direction)
        fake.at_limit[motor] = false;
    if (motor >= HAL_MOTOR_STACKER0 && motor < HAL_MOTOR_LIFT0 && direction) {
        fake.wall_tiles[motor - HAL_MOTOR_STACKER0] = wall_tiles;
        memset(&fake.count[motor - HAL_MOTOR_STACKER0], 0, sizeof fake.count[0]);
    }
    if (motor == HAL_MOTOR_HATCH && direction)
        fake.sensors &= (uint16_t)~(SENSOR_HATCH_OPEN | SENSOR_HATCH_CLOSED);
    if (motor == HAL_MOTOR_DISC && direction)
        fake.mixed = false;
}

uint16_t hal_sensors(void)
{
    return fake.sensors;
}

void hal_stack_counter(uint8_t side, struct hal_count *count)
{
    *count = fake.count[side];
}

bool hal_disc_mixed(void)
{
    return fake.mixed;
}

bool hal_dice_settled(uint8_t dice[2])
{
    if (fake.dice_ready)
        memcpy(dice, fake.dice, 2);
    return fake.dice_ready;
}

void hal_safe_outputs(void)
{
    fake.safe_outputs++;
    memset(fake.motor, 0, sizeof fake.motor);
}

bool hal_step_limit_reached(enum hal_motor motor)
{
    return fake.at_limit[motor];
}

uint8_t hal_driver_faults(void)
{
    return fake.driver_faults;
}

/* Round numbers the tests count on: stack 50 ms, lift 100 ms, lower 80 ms, hatch 60 ms, mix 2 s, dice 40 ms. */
uint32_t hal_nominal_us(enum hal_nominal which)
{
    switch (which) {
    case HAL_NOMINAL_LIFT: return 100000u;
    case HAL_NOMINAL_LOWER: return 80000u;
    case HAL_NOMINAL_HATCH: return 60000u;
    case HAL_NOMINAL_MIX: return 2000000u;
    case HAL_NOMINAL_DICE: return 40000u;
    default: return 50000u;
    }
}

void hal_phase_entered(uint8_t phase, uint64_t now)
{
    (void)phase;
    (void)now;
}
