/* The host board: the firmware as a Linux process, like Klipper's Linux MCU. It opens two pseudo-terminals, the
 * host link and the side channel of the simulated mechanism, prints their paths ("link PATH", "sim PATH") on
 * stdout, and serves until stdin reaches end of file or a SIGTERM / SIGINT arrives. Between two polls it sleeps
 * in select() until a byte arrives or the core's next deadline.
 *
 *   mjtable-fw [--board-id ID] [--seed N] [--speed X]
 *
 * --seed is the mechanism's random source (random.Random(N)), --speed its speed factor (0.01-1000); the side
 * channel's SPEED and SEED set them too.
 *
 * A Linux process has no watchdog and no hard-fault handler, so this board emulates both as a chip has them: a core
 * that has not kicked for WATCHDOG_US (an interval timer's SIGALRM) is restarted, core_init(WATCHDOG) from the top
 * of main by siglongjmp, the ports kept like the chip's UART lines; a fault signal (SIGILL, SIGSEGV, SIGBUS, SIGFPE)
 * makes the outputs safe and waits for that watchdog, as the Cortex-M boards' hard-fault handler does. The watchdog
 * counts wall time and is longer than the chip's 250 ms: a process descheduled on a loaded machine is not stuck. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/select.h>
#include <sys/time.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "hal.h"
#include "proto.h"
#include "sim/sim.h"

#define RX_SIZE 4096
#define WATCHDOG_US 1000000
#define REARM_US 100000 /* the timer is re-armed at most this often: the reset comes 0.9-1.0 s after the last kick */

struct port {
    int master, slave;
    char path[64];
    uint8_t rx[RX_SIZE];
    size_t rx_len, rx_pos;
};

static struct port link_port, sim_port;
static struct timespec started;
static char board_id[BOARD_ID_SIZE + 1] = "HOST-0001";
static volatile sig_atomic_t stopping;
static sigjmp_buf reboot;
static uint64_t armed_at;
static bool armed;

static void fail(const char *what)
{
    fprintf(stderr, "mjtable-fw: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* A pty in raw mode whose slave side stays open here, so the master never reads EIO between two clients. */
static void open_port(struct port *port)
{
    struct termios raw;
    port->master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (port->master < 0 || grantpt(port->master) || unlockpt(port->master))
        fail("posix_openpt");
    if (ptsname_r(port->master, port->path, sizeof port->path))
        fail("ptsname");
    port->slave = open(port->path, O_RDWR | O_NOCTTY);
    if (port->slave < 0)
        fail(port->path);
    if (tcgetattr(port->slave, &raw))
        fail("tcgetattr");
    cfmakeraw(&raw);
    if (tcsetattr(port->slave, TCSANOW, &raw))
        fail("tcsetattr");
}

static void fill(struct port *port)
{
    if (port->rx_pos < port->rx_len)
        return;
    ssize_t got = read(port->master, port->rx, sizeof port->rx);
    port->rx_pos = 0;
    port->rx_len = got > 0 ? (size_t)got : 0;
}

static int getc_port(struct port *port)
{
    fill(port);
    return port->rx_pos < port->rx_len ? port->rx[port->rx_pos++] : -1;
}

/* A UART drops what it cannot send: a full pty buffer (nobody reading) loses the frame, never blocks the core. */
static void write_port(struct port *port, const uint8_t *data, uint8_t len)
{
    ssize_t done = write(port->master, data, len);
    (void)done;
}

/* -- the chip half of hal.h ------------------------------------------------------------------------------------ */

uint64_t hal_time_us(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)(now.tv_sec - started.tv_sec) * 1000000u + (uint64_t)now.tv_nsec / 1000u
           - (uint64_t)started.tv_nsec / 1000u;
}

int hal_serial_getc(void)
{
    return getc_port(&link_port);
}

void hal_serial_write(const uint8_t *data, uint8_t len)
{
    write_port(&link_port, data, len);
}

int hal_sim_getc(void)
{
    return getc_port(&sim_port);
}

void hal_sim_write(const uint8_t *data, uint8_t len)
{
    write_port(&sim_port, data, len);
}

void hal_lamp(uint8_t lamp, bool on)
{
    (void)lamp; /* no lamps on a Linux process: the side channel's STATE shows what they would show */
    (void)on;
}

static void arm_watchdog(void)
{
    struct itimerval timer = {{0, 0}, {WATCHDOG_US / 1000000, WATCHDOG_US % 1000000}};
    setitimer(ITIMER_REAL, &timer, NULL);
}

void hal_watchdog_kick(void)
{
    uint64_t now = hal_time_us();
    if (!armed || now - armed_at >= REARM_US) {
        arm_watchdog();
        armed_at = now;
        armed = true;
    }
}

/* The watchdog ran out: restart the firmware (the chip's reset), whatever it was doing. */
static void on_watchdog(int signal)
{
    (void)signal;
    siglongjmp(reboot, RESET_WATCHDOG);
}

/* The hard-fault handler: outputs safe at once, then nothing until the watchdog resets the chip. */
static void on_fault(int signal)
{
    (void)signal;
    hal_safe_outputs();
    for (;;)
        pause();
}

uint8_t hal_reset_reason(void)
{
    return RESET_POWER_ON;
}

const char *hal_board_id(void)
{
    return board_id;
}

/* -- the process ----------------------------------------------------------------------------------------------- */

static void on_signal(int signal)
{
    (void)signal;
    stopping = 1;
}

static void usage(const char *why)
{
    fprintf(stderr, "mjtable-fw: %s\nusage: mjtable-fw [--board-id ID] [--seed N] [--speed X]\n", why);
    exit(2);
}

static void parse(int argc, char **argv)
{
    unsigned long seed = 2;
    double speed = 1.0;
    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        if (i + 1 >= argc)
            usage("every option takes a value");
        const char *value = argv[++i];
        if (!strcmp(argv[i - 1], "--board-id")) {
            if (!*value || strlen(value) > BOARD_ID_SIZE)
                usage("--board-id: expected 1 to 12 characters");
            strcpy(board_id, value);
        } else if (!strcmp(argv[i - 1], "--seed")) {
            errno = 0;
            seed = strtoul(value, &end, 10);
            if (errno || *end || !*value || value[0] == '-' || seed > 0xFFFFFFFFul)
                usage("--seed: expected an integer from 0 to 4294967295");
        } else if (!strcmp(argv[i - 1], "--speed")) {
            speed = strtod(value, &end);
            if (*end || !*value || !(speed >= 0.01 && speed <= 1000))
                usage("--speed: expected a number from 0.01 to 1000");
        } else {
            usage("unknown option");
        }
    }
    uint32_t key = (uint32_t)seed;
    sim_start();
    sim_seed(&key, 1);
    sim_speed((uint32_t)(speed * 1000 + 0.5));
}

int main(int argc, char **argv)
{
    clock_gettime(CLOCK_MONOTONIC, &started);
    parse(argc, argv);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    open_port(&link_port);
    open_port(&sim_port);
    printf("link %s\nsim %s\n", link_port.path, sim_port.path);
    fflush(stdout);
    struct sigaction watchdog = {.sa_handler = on_watchdog}, fault = {.sa_handler = on_fault};
    sigemptyset(&watchdog.sa_mask);
    sigemptyset(&fault.sa_mask);
    fault.sa_flags = SA_NODEFER; /* a second fault after the restart is handled the same way */
    sigaction(SIGALRM, &watchdog, NULL);
    for (int i = 0; i < 4; i++)
        sigaction((const int[]){SIGILL, SIGSEGV, SIGBUS, SIGFPE}[i], &fault, NULL);
    int reason = sigsetjmp(reboot, 1);
    arm_watchdog(); /* running from the start, as the chip's: a core that never kicks it is reset too */
    armed_at = hal_time_us();
    armed = true;
    core_init(reason ? (uint8_t)reason : hal_reset_reason());
    while (!stopping) {
        uint64_t now = hal_time_us();
        uint64_t wake = core_poll(now);
        uint64_t wait = wake - now;
        if (wait > HAL_POLL_MAX_US)
            wait = HAL_POLL_MAX_US;
        struct timeval timeout = {(time_t)(wait / 1000000), (suseconds_t)(wait % 1000000)};
        fd_set readable;
        FD_ZERO(&readable);
        FD_SET(STDIN_FILENO, &readable);
        FD_SET(link_port.master, &readable);
        FD_SET(sim_port.master, &readable);
        int maxfd = link_port.master > sim_port.master ? link_port.master : sim_port.master;
        if (select(maxfd + 1, &readable, NULL, NULL, &timeout) < 0) {
            if (errno == EINTR)
                continue;
            fail("select");
        }
        if (FD_ISSET(STDIN_FILENO, &readable)) {
            char sink[256];
            if (read(STDIN_FILENO, sink, sizeof sink) <= 0)
                break;
        }
    }
    return 0;
}
