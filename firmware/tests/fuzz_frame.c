/* The frame reader fed random and mutated bytes (built with ASan + UBSan by `make -C firmware fuzz`).
 *
 *   fuzz_frame BYTES SEED [DUMP]
 *
 * The stream mixes valid frames, frames with a flipped bit, a changed or lost byte or a cut end, random bytes,
 * runs of sync bytes, sync bytes with a random LEN, and quiet moments (frame_reader_idle). Checked after every
 * byte: the reader never holds 64 bytes or more once drained (no buffer growth) and every frame it gives has a
 * valid length; after every quiet moment, the next valid frame is decoded exactly (the resync guarantee).
 * Prints one line of counts and an FNV-1a digest of the decoded frames; with DUMP, writes the stream to DUMP.bin
 * and the offsets of the quiet moments to DUMP.idle, so tests/firmware compares with firmware_bridge/framing.py.
 * Exits 1 on a broken check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/frame.h"

static uint64_t rng_state;

static uint32_t next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static uint32_t below(uint32_t n)
{
    return next() % n;
}

static struct {
    struct frame_reader reader;
    unsigned long long bytes, frames, guaranteed;
    uint64_t digest;
    FILE *dump, *idle;
    bool expecting;    /* a quiet moment passed: the next valid frame must come out */
    struct frame want; /* ... and this is it */
    bool failed;
} f;

static void fail(const char *why)
{
    fprintf(stderr, "fuzz_frame: %s after %llu bytes\n", why, f.bytes);
    f.failed = true;
}

static void digest(const struct frame *frame)
{
    const uint8_t head[3] = {frame->seq, frame->type, frame->len};
    for (unsigned i = 0; i < 3u + frame->len; i++) {
        f.digest ^= i < 3 ? head[i] : frame->payload[i - 3];
        f.digest *= 0x100000001b3ull;
    }
}

static void drain(void)
{
    struct frame frame;
    while (frame_reader_next(&f.reader, &frame)) {
        f.frames++;
        if (frame.len > FRAME_MAX_PAYLOAD)
            fail("a frame longer than the protocol allows");
        digest(&frame);
        if (f.expecting) {
            if (frame.seq != f.want.seq || frame.type != f.want.type || frame.len != f.want.len
                || memcmp(frame.payload, f.want.payload, frame.len))
                fail("after a quiet line the next valid frame did not come out first");
            f.expecting = false;
            f.guaranteed++;
        }
    }
    if (f.reader.count >= FRAME_MAX_BYTES)
        fail("the reader holds 64 bytes or more");
}

static void push(const uint8_t *data, unsigned len)
{
    for (unsigned i = 0; i < len; i++) {
        frame_reader_push(&f.reader, data[i]);
        f.bytes++;
        drain();
    }
    if (f.dump)
        fwrite(data, 1, len, f.dump);
}

static void quiet(void)
{
    frame_reader_idle(&f.reader);
    drain();
    if (f.idle)
        fprintf(f.idle, "%llu\n", f.bytes);
    f.expecting = true;
}

static uint8_t random_frame(uint8_t *out, struct frame *frame)
{
    frame->seq = (uint8_t)next();
    frame->type = (uint8_t)next();
    frame->len = (uint8_t)below(FRAME_MAX_PAYLOAD + 1);
    for (unsigned i = 0; i < frame->len; i++)
        frame->payload[i] = below(4) ? (uint8_t)next() : FRAME_SYNC;
    return frame_encode(out, frame->seq, frame->type, frame->payload, frame->len);
}

static void chunk(void)
{
    uint8_t data[160];
    struct frame frame;
    unsigned kind = below(100), len;
    if (kind < 30) { /* a valid frame */
        len = random_frame(data, &frame);
        f.want = frame;
        push(data, len);
        if (f.expecting)
            fail("after a quiet line a valid frame did not come out");
        return;
    }
    f.expecting = false; /* the guarantee is for a valid frame right after a quiet moment */
    if (kind < 55) {     /* a mutated frame */
        len = random_frame(data, &frame);
        unsigned at = below(len);
        switch (below(4)) {
        case 0: data[at] ^= (uint8_t)(1u << below(8)); break;
        case 1: data[at] = (uint8_t)next(); break;
        case 2: memmove(data + at, data + at + 1, --len - at); break;
        default: len = at; break;
        }
    } else if (kind < 70) { /* random bytes */
        len = 1 + below(80);
        for (unsigned i = 0; i < len; i++)
            data[i] = (uint8_t)next();
    } else if (kind < 80) { /* sync bytes among random ones */
        len = 1 + below(80);
        for (unsigned i = 0; i < len; i++)
            data[i] = below(2) ? FRAME_SYNC : (uint8_t)next();
    } else if (kind < 90) { /* a sync byte with a random LEN, then random bytes */
        len = 2 + below(70);
        data[0] = FRAME_SYNC;
        for (unsigned i = 1; i < len; i++)
            data[i] = (uint8_t)next();
    } else {
        quiet();
        return;
    }
    push(data, len);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fuzz_frame BYTES SEED [DUMP]\n");
        return 2;
    }
    unsigned long long total = strtoull(argv[1], NULL, 10);
    rng_state = strtoull(argv[2], NULL, 10) * 0x9E3779B97F4A7C15ull | 1;
    f.digest = 0xcbf29ce484222325ull;
    frame_reader_init(&f.reader);
    if (argc > 3) {
        char path[4096];
        snprintf(path, sizeof path, "%s.bin", argv[3]);
        f.dump = fopen(path, "wb");
        snprintf(path, sizeof path, "%s.idle", argv[3]);
        f.idle = fopen(path, "w");
        if (!f.dump || !f.idle) {
            perror(argv[3]);
            return 2;
        }
    }
    clock_t started = clock();
    while (f.bytes < total && !f.failed)
        chunk();
    const struct frame_stats *s = &f.reader.stats;
    printf("bytes %llu frames %llu crc_errors %lu bad_lengths %lu garbage_bytes %lu stale_partials %lu "
           "guaranteed %llu digest %016llx cpu_s %.2f\n",
           f.bytes, f.frames, (unsigned long)s->crc_errors, (unsigned long)s->bad_lengths,
           (unsigned long)s->garbage_bytes, (unsigned long)s->stale_partials, f.guaranteed,
           (unsigned long long)f.digest, (double)(clock() - started) / CLOCKS_PER_SEC);
    if (f.dump) {
        fclose(f.dump);
        fclose(f.idle);
    }
    return f.failed ? 1 : 0;
}
