/*
 * The report: problem records with their numbers, a message and, where the
 * walk knew it, the path of the file concerned (resolved at the end, since
 * a record is made before the directories are read).
 */
#include <f2fs/fs/dir.h>
#include <f2fs/format/endian.h>

#include "ck.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ck_pb(struct ck *ck, enum f2fs_problem_code code, const struct ck_at *at,
	   const char *fmt, ...)
{
	struct f2fs_check_report *r = ck->r;
	struct f2fs_problem *p;
	va_list ap;

	r->count[code]++;
	if (f2fs_problem_info(code)->severity == F2FS_SEV_ERROR)
		r->errors++;
	else
		r->warnings++;
	if (r->count[code] > ck->max_per) {
		r->suppressed++;
		return;
	}
	if (r->nproblems == ck->problems_cap)
		r->problems = f2fs_grow(r->problems, &ck->problems_cap, r->nproblems + 1,
					sizeof(*r->problems));
	if (r->nproblems == ck->problems_cap ||
	    f2fs_vec_push(&ck->paths, (struct ck_pending_path){ 0 })) {
		r->suppressed++;
		return;
	}
	p = &r->problems[r->nproblems];
	memset(p, 0, sizeof(*p));
	p->code = code;
	if (at) {
		p->have = (at->h_nid ? F2FS_PF_NID : 0) | (at->h_ino ? F2FS_PF_INO : 0) |
			  (at->h_seg ? F2FS_PF_SEGNO : 0) | (at->h_blk ? F2FS_PF_BLKADDR : 0) |
			  (at->h_exp ? F2FS_PF_EXPECTED : 0) | (at->h_found ? F2FS_PF_FOUND : 0);
		p->nid = at->nid;
		p->ino = at->ino;
		p->segno = at->segno;
		p->blkaddr = at->blkaddr;
		p->expected = at->expected;
		p->found = at->found;
	}
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	if (at && (at->has_path || at->h_ino)) {
		ck->paths.v[r->nproblems].ino = at->has_path ? at->path_ino : at->ino;
		if (at->name) {
			uint8_t *s = malloc(at->name_len + 1);

			if (s)
				memcpy(s, at->name, at->name_len);
			ck->paths.v[r->nproblems].name = s;
			ck->paths.v[r->nproblems].name_len = at->name_len;
		}
	}
	r->nproblems++;
}

void ck_pb_name(struct ck *ck, enum f2fs_problem_code code, uint32_t nid, uint32_t dir,
		const uint8_t *name, uint32_t len)
{
	for (size_t i = 0; i < ck->r->nproblems; i++) {
		const struct f2fs_problem *p = &ck->r->problems[i];
		uint8_t *s;

		if (p->code != code || !(p->have & F2FS_PF_NID) || p->nid != nid)
			continue;
		if (ck->paths.v[i].name || !(s = malloc(len + 1)))
			return;
		memcpy(s, name, len);
		ck->paths.v[i].ino = dir;
		ck->paths.v[i].name = s;
		ck->paths.v[i].name_len = len;
		return;
	}
}

void ck_progress(struct ck *ck, const char *phase, uint64_t done, uint64_t total)
{
	if (ck->opt->progress)
		ck->opt->progress(phase, done, total, ck->opt->progress_arg);
}

void ck_node_unreadable(struct ck *ck, uint32_t nid, uint32_t addr, const struct f2fs_error *e)
{
	const struct ck_nid *n = ck_nid_find(ck, nid);
	uint32_t ino = n ? ck_nid_ino(ck, n, nid) : 0;

	if (ino == nid)
		ck_pb(ck, F2FS_PB_NODE_UNREADABLE, AT(A_NID(nid), A_INO(ino), A_BLK(addr)),
		      "inode %u: its node block 0x%x could not be read (%s)", nid, addr,
		      f2fs_strerror(e->code));
	else
		ck_pb(ck, F2FS_PB_NODE_UNREADABLE, AT(A_NID(nid), A_INO(ino), A_BLK(addr)),
		      "nid %u (a node of inode %u): block 0x%x could not be read (%s)", nid,
		      ino, addr, f2fs_strerror(e->code));
}

struct name_find {
	uint32_t child;
	uint8_t name[F2FS_NAME_LEN];
	size_t len;
	int found;
};

static int name_cb(const struct f2fs_dirent *de, void *arg)
{
	struct name_find *f = arg;

	if (de->ino != f->child || (de->name_len == 1 && de->name[0] == '.') ||
	    (de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	f->len = de->name_len < F2FS_NAME_LEN ? de->name_len : F2FS_NAME_LEN;
	memcpy(f->name, de->name, f->len);
	f->found = 1;
	return 1;
}

/* A new path: base's len bytes, then "/" and name's name_len bytes
 * (between them no "/" after the root's "/"), NUL-terminated for the
 * callers that read it as a string; base is freed. */
char *ck_path_join(char *base, size_t *len, const uint8_t *name, size_t name_len)
{
	int slash = !(*len == 1 && base[0] == '/');
	char *np = base ? malloc(*len + (size_t)slash + name_len + 1) : NULL;

	if (np) {
		memcpy(np, base, *len);
		if (slash)
			np[*len] = '/';
		memcpy(np + *len + slash, name, name_len);
		*len += (size_t)slash + name_len;
		np[*len] = '\0';
	}
	free(base);
	return np;
}

/* Path of ino (*len bytes; a name may hold NUL) from the parents found in
 * the tree walk; NULL if unknown. Built from the root down: the names are
 * found leaf first, kept, then joined. */
char *ck_path_of(struct ck *ck, uint32_t ino, size_t *len)
{
	struct name_find names[65];
	uint32_t cur = ino;
	int depth = 0;
	struct f2fs_error e;
	char *path;

	while (cur != F2FS_ROOT_INO) {
		struct ck_nid *ci = ck_inode(ck, cur);
		uint32_t parent = ci ? ck_parent(ck, ci, cur) : 0;
		struct name_find *f = &names[depth];

		if (!parent || depth == 65)
			return NULL;
		*f = (struct name_find){ .child = cur };
		if (f2fs_dir_foreach(ck->fs, parent, name_cb, f, &e) < 0 || !f->found)
			return NULL;
		depth++;
		cur = parent;
	}
	path = strdup("/");
	*len = 1;
	while (path && depth--)
		path = ck_path_join(path, len, names[depth].name, names[depth].len);
	return path;
}

size_t ck_paths_pending(const struct ck *ck, uint32_t *inos, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ck->r->nproblems && n < max && n < CK_PATHS_MAX; i++)
		if (ck->paths.v[i].ino)
			inos[n++] = ck->paths.v[i].ino;
	return n;
}

void ck_resolve_paths(struct ck *ck)
{
	size_t budget = CK_PATHS_MAX;

	for (size_t i = 0; i < ck->r->nproblems && budget; i++) {
		struct ck_pending_path *pp = &ck->paths.v[i];
		size_t len = 0;
		char *base;

		if (!pp->ino)
			continue;
		budget--;
		base = ck_path_of(ck, pp->ino, &len);
		if (base && pp->name)
			base = ck_path_join(base, &len, pp->name, pp->name_len);
		ck->r->problems[i].path = base;
		ck->r->problems[i].path_len = base ? len : 0;
	}
}

void f2fs_check_report_free(struct f2fs_check_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nproblems; i++) {
		free(r->problems[i].path);
		free(r->problems[i].moved_to);
	}
	free(r->problems);
	free(r);
}


void ck_root_paths(struct ck *ck)
{
	for (size_t i = 0; i < ck->r->nproblems; i++)
		if (!ck->r->problems[i].path && ck->paths.v[i].ino == F2FS_ROOT_INO &&
		    !ck->paths.v[i].name) {
			ck->r->problems[i].path = strdup("/");
			ck->r->problems[i].path_len = 1;
		}
}

void ck_paths_free(struct ck *ck)
{
	for (size_t i = 0; i < ck->paths.n; i++)
		free(ck->paths.v[i].name);
	f2fs_vec_free(&ck->paths);
}
