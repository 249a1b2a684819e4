/* Node offsets and paths in an inode's tree (node_ofs.h). */
#include <f2fs/format/node_ofs.h>
#include <f2fs/format/format.h>

#define NPB F2FS_NIDS_PER_BLOCK
/* the first and second indirect nodes, the double indirect node */
#define IND1 3u
#define IND2 (IND1 + NPB + 1)
#define DIND (IND2 + NPB + 1)

enum f2fs_node_kind f2fs_node_kind(uint32_t ofs)
{
	if (ofs == 0)
		return F2FS_NODE_INODE;
	if (ofs == F2FS_XATTR_NODE_OFFSET)
		return F2FS_NODE_XATTR;
	if (ofs == IND1 || ofs == IND2)
		return F2FS_NODE_INDIRECT;
	if (ofs < DIND)
		return F2FS_NODE_DIRECT;
	if (ofs == DIND)
		return F2FS_NODE_DOUBLE;
	/* under the double indirect node: NPB runs of an indirect node and
	 * its NPB direct nodes */
	if ((ofs - DIND - 1) / (NPB + 1) >= NPB)
		return F2FS_NODE_BAD;
	return (ofs - DIND - 1) % (NPB + 1) == 0 ? F2FS_NODE_INDIRECT : F2FS_NODE_DIRECT;
}

uint32_t f2fs_node_child_ofs(uint32_t ofs, uint32_t k)
{
	if (ofs == IND1)
		return IND1 + 1 + k;
	if (ofs == IND2)
		return IND2 + 1 + k;
	if (ofs == DIND)
		return DIND + 1 + k * (NPB + 1);
	return ofs + 1 + k;        /* an indirect node under the double one */
}

uint64_t f2fs_node_start_bidx(uint32_t ofs, uint32_t addrs_per_inode)
{
	uint64_t direct;   /* direct nodes before this one in the walk */

	if (ofs == 0)
		return 0;
	if (ofs <= 2)
		direct = ofs - 1;
	else if (ofs <= DIND - 1)
		direct = ofs - 2 - (ofs - 4) / (NPB + 1);
	else
		direct = ofs - 5 - (ofs - DIND - 2) / (NPB + 1);
	return direct * F2FS_ADDRS_PER_BLOCK + addrs_per_inode;
}

uint32_t f2fs_node_top_ofs(uint32_t k)
{
	static const uint32_t top[F2FS_DEF_NIDS_PER_INODE] = { 1, 2, IND1, IND2, DIND };

	return top[k];
}

uint32_t f2fs_node_top_depth(uint32_t k)
{
	return k < 2 ? 0 : k < 4 ? 1 : 2;
}

uint64_t f2fs_node_span(uint32_t depth)
{
	uint64_t span = F2FS_ADDRS_PER_BLOCK;

	while (depth--)
		span *= NPB;
	return span;
}

uint64_t f2fs_node_tree_blocks(uint32_t addrs_per_inode)
{
	uint64_t blocks = addrs_per_inode;

	for (uint32_t k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++)
		blocks += f2fs_node_span(f2fs_node_top_depth(k));
	return blocks;
}

bool f2fs_node_path_of(uint32_t ofs, struct f2fs_node_path *p)
{
	uint32_t rel, j;

	*p = (struct f2fs_node_path){ 0 };
	if (ofs == 0)
		return true;
	for (uint32_t k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++)
		if (ofs == f2fs_node_top_ofs(k)) {
			*p = (struct f2fs_node_path){ 1, { 0, ofs }, { k } };
			return true;
		}
	if (ofs < IND2) {
		*p = (struct f2fs_node_path){ 2, { 0, IND1, ofs }, { 2, ofs - IND1 - 1 } };
		return true;
	}
	if (ofs < DIND) {
		*p = (struct f2fs_node_path){ 2, { 0, IND2, ofs }, { 3, ofs - IND2 - 1 } };
		return true;
	}
	/* under the double indirect node: runs of an indirect node and its
	 * direct nodes */
	rel = ofs - DIND - 1;
	j = rel / (NPB + 1);
	if (j >= NPB)
		return false;
	*p = (struct f2fs_node_path){ 2, { 0, DIND, DIND + 1 + j * (NPB + 1) }, { 4, j } };
	if (rel % (NPB + 1)) {
		p->levels = 3;
		p->ofs[3] = ofs;
		p->slot[2] = rel % (NPB + 1) - 1;
	}
	return true;
}

bool f2fs_block_path(uint64_t fofs, uint32_t addrs_per_inode, struct f2fs_node_path *p)
{
	uint32_t k = 0;

	*p = (struct f2fs_node_path){ 0 };
	if (fofs < addrs_per_inode) {
		p->slot[0] = (uint32_t)fofs;
		return true;
	}
	fofs -= addrs_per_inode;
	while (fofs >= f2fs_node_span(f2fs_node_top_depth(k))) {
		fofs -= f2fs_node_span(f2fs_node_top_depth(k));
		if (++k == F2FS_DEF_NIDS_PER_INODE)
			return false;
	}
	p->levels = 1 + f2fs_node_top_depth(k);
	p->ofs[1] = f2fs_node_top_ofs(k);
	p->slot[0] = k;
	for (uint32_t l = 1; l < p->levels; l++) {
		uint64_t below = f2fs_node_span(p->levels - l - 1);

		p->slot[l] = (uint32_t)(fofs / below);
		p->ofs[l + 1] = f2fs_node_child_ofs(p->ofs[l], p->slot[l]);
		fofs %= below;
	}
	p->slot[p->levels] = (uint32_t)fofs;
	return true;
}

uint64_t f2fs_block_path_rest(const struct f2fs_node_path *p, uint32_t level)
{
	uint64_t within = p->slot[p->levels], span = F2FS_ADDRS_PER_BLOCK;

	for (uint32_t l = p->levels; l > level; l--) {
		within += p->slot[l - 1] * span;
		span *= NPB;
	}
	return span - within;
}
