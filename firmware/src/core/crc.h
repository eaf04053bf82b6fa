/* The two checksums of PROTOCOL.md: CRC-16/CCITT-FALSE over frames, CRC-32 (zlib) over CONFIGURE's fields. */
#ifndef MJ_CRC_H
#define MJ_CRC_H

#include <stddef.h>
#include <stdint.h>

/* CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, not reflected, no final xor; crc16("123456789") = 0x29B1. */
uint16_t crc16(const uint8_t *data, size_t len);

/* CRC-32 as zlib.crc32 (IEEE 802.3, reflected, init and final xor 0xFFFFFFFF); crc32("123456789") = 0xCBF43926. */
uint32_t crc32(const uint8_t *data, size_t len);

#endif
