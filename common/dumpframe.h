/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dumpframe.h - the framing of a dump on the sink (docs/plan.md, "Dump
 * framing"), shared by its one writer (initramfs/dump.c, util.c) and its
 * one reader (dumpread/frame.c).  Self-contained: the agent is built
 * without the rest of common/.
 *
 *   === probecc dump N begin NONCE ===
 *   === probecc dump N chunk SEQ LEN CRC NONCE ===
 *   LEN bytes of the dump, then "\n" when they do not end with one
 *   ... more chunks, SEQ 1, 2, 3 ...
 *   === probecc dump N end CHUNKS BYTES NONCE ===
 *
 * NONCE: 16 lower-case hex digits, random for each boot (AT_RANDOM mixed
 * with getrandom(2)), on every frame line; CRC: the CRC-32 of the LEN
 * bytes as 8 hex digits; CHUNKS and BYTES: how many chunks and data bytes
 * the dump had.  A reader takes exactly LEN bytes after a chunk line and
 * never looks for frames inside them, so traced data (a file name with
 * newlines) cannot end a dump or start one; the nonce makes frame lines
 * outside chunks (a console's kernel messages) impossible to imitate
 * without it; lengths, sequence numbers and checksums tell a serial line
 * that dropped or changed bytes.
 *
 * The b64 form of a chunk, for a console whose log is not byte-exact (a
 * LAVA job's: lava_dispatcher/shell.py ShellLogger drops CR and ESC,
 * collapses blank lines and replaces invalid UTF-8):
 *
 *   === probecc dump N b64 SEQ LEN CRC NONCE ===
 *   the LEN bytes as base64 (RFC 4648, "=" padding), DUMP_FRAME_B64_LINE
 *   characters a line (57 bytes), the last line shorter, each ended by "\n"
 *
 * SEQ, LEN and CRC as a chunk's, of the bytes before encoding: the line
 * count follows from LEN, so a reader takes exactly those lines.  Only
 * 7-bit printable text, which every console log keeps.
 */
#ifndef PROBECC_DUMPFRAME_H
#define PROBECC_DUMPFRAME_H

#include <stddef.h>
#include <stdint.h>

#define DUMP_FRAME_NONCE_LEN	16		/* hex digits */
#define DUMP_FRAME_CHUNK_MAX	(64 * 1024)	/* bytes of data in one chunk */

/* printf formats of the three frame lines (N, then the fields above) */
#define DUMP_FRAME_BEGIN	"=== probecc dump %u begin %s ===\n"
#define DUMP_FRAME_CHUNK	"=== probecc dump %u chunk %u %zu %08x %s ===\n"
#define DUMP_FRAME_END		"=== probecc dump %u end %u %llu %s ===\n"
#define DUMP_FRAME_B64		"=== probecc dump %u b64 %u %zu %08x %s ===\n"
#define DUMP_FRAME_B64_LINE	76	/* characters (RFC 2045's line) */

/*
 * crc32_update() - the CRC-32 of IEEE 802.3 (zlib's crc32(): reflected
 * polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF) of @len bytes
 * at @buf, continued from @crc (0 to start).  A 1 KiB table, built on
 * the first call (static: each file that calls it has its own).
 */
static inline uint32_t crc32_update(uint32_t crc, const void *buf, size_t len)
{
	static uint32_t table[256];
	const unsigned char *p = buf;
	uint32_t c;
	int i, k;

	if (!table[1])
		for (i = 0; i < 256; i++) {
			for (c = i, k = 0; k < 8; k++)
				c = (c >> 1) ^ (0xEDB88320u & -(c & 1));
			table[i] = c;
		}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

#endif /* PROBECC_DUMPFRAME_H */
