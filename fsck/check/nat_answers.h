/*
 * NAT entries in doubt and the node blocks that answer for them
 * (nat_answers.c).
 */
#ifndef F2FS_FSCK_NAT_ANSWERS_H
#define F2FS_FSCK_NAT_ANSWERS_H

#include <stdint.h>

#include "ck.h"

/* The walk found nid named but not usable (not in use, or its block is
 * not its node). */
void ck_nat_doubt(struct ck *ck, uint32_t nid);

/* The answer for nid, or for the nid whose node lies at blkaddr; NULL if
 * none. */
const struct ck_answer *ck_answer_of(const struct ck *ck, uint32_t nid);
const struct ck_answer *ck_answer_at(const struct ck *ck, uint32_t blkaddr);

/* The NAT pass, before it takes the entries of NAT blocks holding
 * entries no image can have: ask about every nid of such a block, then
 * search once for the answers to what was asked. */
int ck_nat_ask_block(struct ck *ck, uint32_t nat_block);
int ck_nat_answer_asked(struct ck *ck);

/* At the end of a run: answers for the nids in doubt; ck.nat_rerun when
 * one differs from the NAT. */
int ck_nat_answer_doubts(struct ck *ck);

void ck_answers_free(struct ck_answers *a);

#endif
