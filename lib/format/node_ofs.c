/* Node offsets in an inode's tree (node_ofs.h). */
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
