/* Frames of PROTOCOL.md §2: 7E LEN SEQ TYPE PAYLOAD CRC_HI CRC_LO, no byte stuffing.
 *
 * The reader holds at most one frame's worth of bytes (64): a byte is pushed, then frames are pulled until none is
 * complete. It resynchronises like firmware_bridge/framing.py: garbage before a sync byte is dropped, a sync byte
 * whose LEN is out of range or whose CRC fails is dropped and the search starts again from the next byte, and
 * frame_reader_idle() declares a partial frame that stopped growing stale (a corrupted LEN), so it never
 * swallows the frames after it. */
#ifndef MJ_FRAME_H
#define MJ_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "proto.h"

struct frame {
    uint8_t seq;
    uint8_t type;
    uint8_t len; /* payload bytes */
    uint8_t payload[FRAME_MAX_PAYLOAD];
};

struct frame_stats {
    uint32_t frames;
    uint32_t crc_errors;
    uint32_t bad_lengths;
    uint32_t garbage_bytes;
    uint32_t stale_partials;
};

struct frame_reader {
    uint8_t buf[FRAME_MAX_BYTES];
    uint8_t count; /* bytes held: always below FRAME_MAX_BYTES once every frame was pulled */
    bool idle;     /* frame_reader_idle() was called: drop partial frames until fewer than 2 bytes remain */
    struct frame_stats stats;
};

void frame_reader_init(struct frame_reader *reader);

/* Append one received byte. Pull every frame (frame_reader_next until false) before pushing the next byte. */
void frame_reader_push(struct frame_reader *reader, uint8_t byte);

/* The next complete frame into *out: true, or false when the bytes held are not (yet) a frame. */
bool frame_reader_next(struct frame_reader *reader, struct frame *out);

/* The line went quiet: the partial frame held had a corrupted LEN; pull frames again to resynchronise. */
void frame_reader_idle(struct frame_reader *reader);

/* Frames that started but failed (CRC, LEN, stale): each may have been one the peer waits for. */
uint32_t frame_reader_broken(const struct frame_reader *reader);

/* Encode a frame into out (at least FRAME_MAX_BYTES); returns its length. len must be at most FRAME_MAX_PAYLOAD. */
uint8_t frame_encode(uint8_t *out, uint8_t seq, uint8_t type, const uint8_t *payload, uint8_t len);

#endif
