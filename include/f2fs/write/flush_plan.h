/*
 * Where dirty NAT or SIT entries go at a checkpoint: the entries of one
 * NAT (or SIT) block form a set; a set goes either into the checkpoint's
 * journal (in the current data summaries) or to its block, written once.
 * The rule is the kernel's: the sparsest sets go into the journal while it
 * has room, the others to their blocks; a journal that cannot take every
 * dirty entry, or a checkpoint that carries nat_bits (whose bitmaps are
 * only right if every dirty NAT block is written), is first emptied into
 * the sets.
 */
#ifndef F2FS_WRITE_FLUSH_PLAN_H
#define F2FS_WRITE_FLUSH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>

struct f2fs_flush_set {
	uint32_t block;      /* NAT or SIT block index */
	uint32_t first;      /* its first entry in the caller's sorted entries */
	uint32_t count;      /* its entries */
	bool to_journal;     /* the decision: the journal, else its block */
};

enum f2fs_flush_policy {
	/* Every set to its block, the journal emptied first: the NAT of a
	 * checkpoint with nat_bits (or any flush that must not journal). */
	F2FS_FLUSH_NO_JOURNAL = 0x1,
	/* Block 0 always to its block: mkfs writes the reserved nids' block. */
	F2FS_FLUSH_BLOCK0 = 0x2,
};

/*
 * Dirty entries are the caller's structs (size bytes each) whose first
 * member is their uint32_t key, nid or segno; per consecutive keys share a
 * block.
 */

/* Sort n entries by key (their order before a flush). */
void f2fs_flush_sort(void *e, size_t n, size_t size);

/* Are the keys increasing (each once) and below limit? what names them. */
int f2fs_flush_check(const void *e, size_t n, size_t size, uint64_t limit, const char *what,
		     struct f2fs_error *err);

/* Group sorted entries into sets (returns how many); sets NULL: only count. */
size_t f2fs_flush_group(const void *e, size_t n, size_t size, uint32_t per,
			struct f2fs_flush_set *sets);

/*
 * Merge m journal entries (any order; sorted in place) into n sorted dirty
 * ones: *out (malloc'ed, *nout entries) is sorted, and a dirty entry wins
 * over a journal one with its key, the first journal one over later ones.
 */
int f2fs_flush_merge(const void *e, size_t n, void *jent, size_t m, size_t size,
		     void **out, size_t *nout, struct f2fs_error *err);

/*
 * Must the journal's in_journal entries join the sets (and the journal be
 * emptied) before planning dirty entries into a journal of capacity?
 */
bool f2fs_flush_empties_journal(uint32_t in_journal, size_t dirty, uint32_t capacity,
				unsigned policy);

/*
 * Order sets sparsest first (equal counts by block index) and mark those
 * that go into a journal with room free slots; with F2FS_FLUSH_NO_JOURNAL
 * they keep their order and all go to blocks. Returns the slots taken.
 */
uint32_t f2fs_flush_plan(struct f2fs_flush_set *sets, size_t n, uint32_t room, unsigned policy);

#endif
