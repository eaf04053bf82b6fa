/* The frame reader and writer (see frame.h): bounded, no allocation, never fails on any input. */
#include "core/frame.h"

#include <string.h>

#include "core/crc.h"

void frame_reader_init(struct frame_reader *reader)
{
    memset(reader, 0, sizeof *reader);
}

static void drop(struct frame_reader *reader, uint8_t bytes)
{
    reader->count = (uint8_t)(reader->count - bytes);
    memmove(reader->buf, reader->buf + bytes, reader->count);
}

void frame_reader_push(struct frame_reader *reader, uint8_t byte)
{
    if (reader->count == FRAME_MAX_BYTES) { /* frames were not pulled: keep the bound, as a stale partial */
        reader->stats.stale_partials++;
        drop(reader, 1);
    }
    reader->buf[reader->count++] = byte;
}

/* One pass of the search: a frame, or false when more bytes are needed. */
static bool parse(struct frame_reader *reader, struct frame *out)
{
    for (;;) {
        uint8_t start = 0;
        while (start < reader->count && reader->buf[start] != FRAME_SYNC)
            start++;
        if (start) {
            reader->stats.garbage_bytes += start;
            drop(reader, start);
        }
        if (reader->count < 2)
            return false;
        uint8_t len = reader->buf[1];
        if (len < FRAME_MIN_LEN || len > FRAME_MAX_LEN) {
            reader->stats.bad_lengths++;
            drop(reader, 1);
            continue;
        }
        uint8_t end = (uint8_t)(2 + len);
        if (reader->count < end + 2)
            return false;
        uint16_t crc = (uint16_t)(reader->buf[end] << 8 | reader->buf[end + 1]);
        if (crc16(reader->buf + 1, len + 1u) != crc) {
            reader->stats.crc_errors++;
            drop(reader, 1);
            continue;
        }
        out->seq = reader->buf[2];
        out->type = reader->buf[3];
        out->len = (uint8_t)(len - FRAME_MIN_LEN);
        memcpy(out->payload, reader->buf + 4, out->len);
        reader->stats.frames++;
        drop(reader, (uint8_t)(end + 2));
        return true;
    }
}

bool frame_reader_next(struct frame_reader *reader, struct frame *out)
{
    for (;;) {
        if (parse(reader, out))
            return true;
        if (!reader->idle || reader->count < 2) {
            reader->idle = false;
            return false;
        }
        reader->stats.stale_partials++;
        drop(reader, 1);
    }
}

void frame_reader_idle(struct frame_reader *reader)
{
    reader->idle = true;
}

uint32_t frame_reader_broken(const struct frame_reader *reader)
{
    return reader->stats.crc_errors + reader->stats.bad_lengths + reader->stats.stale_partials;
}

uint8_t frame_encode(uint8_t *out, uint8_t seq, uint8_t type, const uint8_t *payload, uint8_t len)
{
    out[0] = FRAME_SYNC;
    out[1] = (uint8_t)(FRAME_MIN_LEN + len);
    out[2] = seq;
    out[3] = type;
    if (len)
        memcpy(out + 4, payload, len);
    uint16_t crc = crc16(out + 1, len + 3u);
    out[4 + len] = (uint8_t)(crc >> 8);
    out[5 + len] = (uint8_t)crc;
    return (uint8_t)(len + 6);
}
