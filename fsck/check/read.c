/*
 * Batched reads of main-area blocks in address order: neighbours within a
 * small gap are read in one request, and a request that fails is read again
 * block by block so that a bad block costs only itself.
 */
#include "ck.h"

#include <errno.h>

/* Next set bit of map at or after i, or total. */
static uint64_t map_next(const uint8_t *map, uint64_t i, uint64_t total)
{
	while (i < total) {
		uint8_t b = (uint8_t)(map[i / 8] << (i % 8));

		if (b)
			return i + (uint64_t)__builtin_clz((uint32_t)b << 24);
		i = (i / 8 + 1) * 8;
		/* whole zero words: the map is mostly empty outside node segments */
		while (i + 64 <= total && !(map[i / 8] | map[i / 8 + 1] | map[i / 8 + 2] |
					    map[i / 8 + 3] | map[i / 8 + 4] | map[i / 8 + 5] |
					    map[i / 8 + 6] | map[i / 8 + 7]))
			i += 64;
	}
	return total;
}

/*
 * One wanted block of a batch. When the batch read failed (a bad sector
 * anywhere in it, wanted or in a gap), each wanted block is read alone, so
 * that a bad block costs only itself: fn gets those that read, bad (when
 * given) those that do not; without bad, the error ends the phase. *alone
 * is the address last read alone (a key may repeat an address), *rd its
 * result, *e its error.
 */
static int batch_block(struct ck *ck, int failed, uint32_t item, uint32_t addr, uint8_t *blk,
		       uint64_t *alone, int *rd, struct f2fs_error *e, ck_block_fn fn,
		       ck_bad_fn bad, void *arg)
{
	if (!failed)
		return fn(ck, item, addr, blk, arg);
	if (*alone != addr) {
		*alone = addr;
		*rd = f2fs_dev_read(f2fs_fs_dev(ck->fs), addr, blk, 1, e);
	}
	if (!*rd)
		return fn(ck, item, addr, blk, arg);
	if (!bad || *rd == -ENOMEM)
		return f2fs_fail(ck->err, *rd, "%s", e->msg);
	return bad(ck, item, addr, e, arg);
}

int ck_read_map(struct ck *ck, const uint8_t *map, uint64_t total, const char *phase,
		ck_block_fn fn, ck_bad_fn bad, void *arg)
{
	struct f2fs_dev *dev = f2fs_fs_dev(ck->fs);
	uint64_t i = map_next(map, 0, total);
	struct f2fs_error e;

	while (i < total) {
		uint64_t first = i, last = i, j, alone = UINT64_MAX;
		int failed, rd = 0;

		/* the batch: set bits no more than CK_IO_GAP apart, CK_IO_BLOCKS in all */
		for (j = map_next(map, i + 1, total); j < total; j = map_next(map, j + 1, total)) {
			if (j - first >= CK_IO_BLOCKS || j - last > CK_IO_GAP)
				break;
			last = j;
		}
		failed = f2fs_dev_read(dev, ck->main_blkaddr + first, ck->io,
				       (size_t)(last - first) + 1, &e) != 0;
		for (uint64_t k = first; k <= last; k = map_next(map, k + 1, total)) {
			int ret = batch_block(ck, failed, 0, (uint32_t)(ck->main_blkaddr + k),
					      ck->io + (size_t)(k - first) * F2FS_BLKSIZE,
					      &alone, &rd, &e, fn, bad, arg);

			if (ret)
				return ret;
		}
		i = j;
		ck_progress(ck, phase, i, total);
	}
	return 0;
}

int ck_read_sorted(struct ck *ck, const uint64_t *keys, size_t n,
		   const char *phase, ck_block_fn fn, ck_bad_fn bad, void *arg)
{
	struct f2fs_dev *dev = f2fs_fs_dev(ck->fs);
	uint64_t dev_blocks = f2fs_dev_bytes(dev) / F2FS_BLKSIZE;
	struct f2fs_error e;
	size_t i = 0;

	while (i < n) {
		uint32_t first = (uint32_t)(keys[i] >> 32), last = first;
		uint64_t alone = UINT64_MAX;
		size_t j = i + 1;
		int failed, rd = 0;

		while (j < n) {
			uint32_t a = (uint32_t)(keys[j] >> 32);

			if (a - first >= CK_IO_BLOCKS || a - last > CK_IO_GAP)
				break;
			last = a;
			j++;
		}
		if (last >= dev_blocks) {
			/* cannot happen for main-area addresses of a valid sb */
			i = j;
			continue;
		}
		failed = f2fs_dev_read(dev, first, ck->io, (size_t)(last - first) + 1, &e) != 0;
		for (size_t k = i; k < j; k++) {
			uint32_t a = (uint32_t)(keys[k] >> 32);
			int ret = batch_block(ck, failed, (uint32_t)keys[k], a,
					      ck->io + (size_t)(a - first) * F2FS_BLKSIZE,
					      &alone, &rd, &e, fn, bad, arg);

			if (ret)
				return ret;
		}
		i = j;
		ck_progress(ck, phase, i, n);
	}
	return 0;
}

